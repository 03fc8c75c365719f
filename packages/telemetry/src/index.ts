export { initTelemetry, type Telemetry, type TelemetryOptions } from './init.js';
export { injectTraceContext, extractTraceContext, type Carrier, type CarrierValue } from './propagation.js';
export { currentTraceIds, type TraceIds } from './ids.js';

// Re-exported so services and tests need no direct dependency on the SDK or API packages.
export {
  SimpleSpanProcessor,
  BatchSpanProcessor,
  InMemorySpanExporter,
  type SpanProcessor,
  type SpanExporter,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace';
export { context, trace, SpanKind, SpanStatusCode, type Context, type Tracer, type Span, type Link, type SpanContext } from '@opentelemetry/api';
