import { context, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, BatchSpanProcessor, ParentBasedSampler, TracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { registerGlobalPropagator } from './propagation.js';

export interface TelemetryOptions {
  serviceName: string;
  /** OTLP/HTTP base endpoint (e.g. `http://collector:4318`); `/v1/traces` is appended unless present. No exporter without it. */
  otlpEndpoint?: string;
  /** Extra processors, e.g. a SimpleSpanProcessor over an InMemorySpanExporter in tests. */
  spanProcessors?: SpanProcessor[];
}

export interface Telemetry {
  tracer: Tracer;
  /** Flushes and stops this instance's processors; unregisters the globals if they are still this instance's. */
  shutdown(): Promise<void>;
}

/** The instance whose provider and context manager are registered globally right now. */
let current: object | undefined;

function tracesUrl(endpoint: string): string {
  const trimmed = endpoint.replace(/\/+$/, '');
  return trimmed.endsWith('/v1/traces') ? trimmed : `${trimmed}/v1/traces`;
}

function unregisterGlobals(): void {
  trace.disable();
  context.disable();
  // propagation is left in place: it is stateless and identical for every instance.
}

/**
 * Builds a tracer provider and registers it, an AsyncLocalStorage context manager and the W3C
 * propagator as the process-wide OpenTelemetry globals.
 *
 * Calling it again (tests do, once per suite) REPLACES the globals: the earlier registrations are
 * disabled first, because the API refuses a second registration silently otherwise. The earlier
 * instance is not shut down: its tracer keeps recording into its own processors until its owner calls
 * its `shutdown()`, which then leaves the newer instance's globals alone.
 */
export function initTelemetry(opts: TelemetryOptions): Telemetry {
  const processors: SpanProcessor[] = [];
  if (opts.otlpEndpoint) {
    processors.push(new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: tracesUrl(opts.otlpEndpoint) }) }));
  }
  processors.push(...(opts.spanProcessors ?? []));

  const provider = new TracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: opts.serviceName })),
    spanProcessors: processors,
    // With nowhere to send spans, recording them is pure cost: three spans per gateway request (HTTP,
    // gRPC client, gRPC server) were about a tenth of its CPU. Such a process starts no sampled trace
    // of its own; its spans still carry trace and span ids (logs, the echoed traceparent, Kafka
    // headers), and a caller's sampled decision is still followed and passed on.
    ...(processors.length === 0 ? { sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }) } : {}),
  });

  unregisterGlobals();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  registerGlobalPropagator();
  trace.setGlobalTracerProvider(provider);

  const token = {};
  current = token;
  let stopped: Promise<void> | undefined;

  return {
    tracer: provider.getTracer(opts.serviceName),
    shutdown() {
      stopped ??= (async () => {
        if (current === token) {
          current = undefined;
          unregisterGlobals();
        }
        await provider.shutdown();
      })();
      return stopped;
    },
  };
}
