import assert from 'node:assert/strict';
import { SpanKind, context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, initTelemetry, type Telemetry } from '@stormhook/telemetry';
import { createClient } from './client.js';
import type { GrpcServer } from './server.js';
import { ProbeService, startProbeServer } from './test-support.js';

describe('trace propagation', () => {
  const exporter = new InMemorySpanExporter();
  let telemetry: Telemetry;
  let server: GrpcServer;
  let client: ReturnType<typeof createClient<typeof ProbeService>>;
  let handlerTraceId: string | undefined;

  before(async () => {
    telemetry = initTelemetry({ serviceName: 'grpc-trace-spec', spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    const started = await startProbeServer({
      async echo(point) {
        handlerTraceId = trace.getSpan(context.active())?.spanContext().traceId;
        return point;
      },
      fail: async () => ({ lng: 0, lat: 0 }),
      points: async function* () {},
      collect: async () => ({ points: [] }),
      mirror: async function* () {},
    });
    server = started.server;
    client = createClient(ProbeService, started.address);
  });
  after(async () => {
    client.close();
    await server.shutdown();
    await telemetry.shutdown();
  });

  it('continues the caller trace in the server handler: caller -> CLIENT span -> SERVER span', async () => {
    exporter.reset();
    const callerTraceId = await telemetry.tracer.startActiveSpan('caller', async (span) => {
      try {
        await client.echo({ lng: 1, lat: 2 });
        return span.spanContext().traceId;
      } finally {
        span.end();
      }
    });
    assert.match(callerTraceId, /^[0-9a-f]{32}$/);
    assert.notEqual(callerTraceId, '0'.repeat(32));
    assert.equal(handlerTraceId, callerTraceId);

    const spans = exporter.getFinishedSpans();
    const caller = spans.find((s) => s.name === 'caller');
    const clientSpan = spans.find((s) => s.kind === SpanKind.CLIENT);
    const serverSpan = spans.find((s) => s.kind === SpanKind.SERVER);
    assert.ok(caller && clientSpan && serverSpan, `spans: ${spans.map((s) => s.name).join(', ')}`);
    assert.equal(clientSpan.name, 'stormhook.test.v1.ProbeService/Echo');
    assert.equal(clientSpan.parentSpanContext?.spanId, caller.spanContext().spanId);
    assert.equal(serverSpan.parentSpanContext?.spanId, clientSpan.spanContext().spanId);
    assert.equal(serverSpan.spanContext().traceId, callerTraceId);
    assert.equal(serverSpan.attributes['rpc.grpc.status_code'], 0);
  });

  it('starts a fresh trace on the server when the caller had none', async () => {
    handlerTraceId = undefined;
    await context.with(trace.deleteSpan(context.active()), () => client.echo({ lng: 1, lat: 2 }));
    assert.match(handlerTraceId ?? '', /^[0-9a-f]{32}$/);
    assert.notEqual(handlerTraceId, '0'.repeat(32));
  });
});
