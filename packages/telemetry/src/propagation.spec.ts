import assert from 'node:assert/strict';
import { ROOT_CONTEXT, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { initTelemetry, type Telemetry } from './init.js';
import { currentTraceIds } from './ids.js';
import { extractTraceContext, injectTraceContext } from './propagation.js';

describe('trace context propagation', () => {
  let telemetry: Telemetry;
  before(() => {
    // A processor, so root spans are sampled (without one a process starts no sampled trace).
    telemetry = initTelemetry({ serviceName: 'propagation-spec', spanProcessors: [new SimpleSpanProcessor({ exporter: new InMemorySpanExporter() })] });
  });
  after(() => telemetry.shutdown());

  it('round-trips the trace id through inject then extract', () => {
    telemetry.tracer.startActiveSpan('send', (span) => {
      const headers = injectTraceContext({});
      span.end();
      assert.match(headers['traceparent'] ?? '', /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      const remote = trace.getSpanContext(extractTraceContext(headers, ROOT_CONTEXT));
      assert.equal(remote?.traceId, span.spanContext().traceId);
      assert.equal(remote?.spanId, span.spanContext().spanId);
      assert.equal(remote?.isRemote, true);
    });
  });

  it('reads Buffer-valued headers as Kafka delivers them, whatever their case', () => {
    const span = telemetry.tracer.startSpan('produce');
    const headers = injectTraceContext({}, trace.setSpan(ROOT_CONTEXT, span));
    span.end();
    const kafkaHeaders = { TraceParent: Buffer.from(headers['traceparent'] ?? ''), other: undefined };
    const ctx = extractTraceContext(kafkaHeaders, ROOT_CONTEXT);
    assert.equal(trace.getSpanContext(ctx)?.traceId, span.spanContext().traceId);
  });

  it('reads string[] values as gRPC metadata holds them', () => {
    const span = telemetry.tracer.startSpan('call');
    const headers = injectTraceContext({}, trace.setSpan(ROOT_CONTEXT, span));
    span.end();
    const ctx = extractTraceContext({ traceparent: [headers['traceparent'] ?? ''] }, ROOT_CONTEXT);
    assert.equal(trace.getSpanContext(ctx)?.traceId, span.spanContext().traceId);
  });

  it('carries baggage alongside the trace context', () => {
    const bag = propagation.createBaggage({ tenant: { value: 'acme' } });
    const headers = injectTraceContext({}, propagation.setBaggage(ROOT_CONTEXT, bag));
    const extracted = propagation.getBaggage(extractTraceContext(headers, ROOT_CONTEXT));
    assert.equal(extracted?.getEntry('tenant')?.value, 'acme');
  });

  it('yields no span for a carrier without or with a malformed traceparent', () => {
    assert.equal(trace.getSpanContext(extractTraceContext({}, ROOT_CONTEXT)), undefined);
    assert.equal(trace.getSpanContext(extractTraceContext({ traceparent: 'garbage' }, ROOT_CONTEXT)), undefined);
  });

  it('continues the remote trace in a child span', () => {
    const parent = telemetry.tracer.startSpan('upstream');
    const headers = injectTraceContext({}, trace.setSpan(ROOT_CONTEXT, parent));
    parent.end();
    const child = telemetry.tracer.startSpan('downstream', {}, extractTraceContext(headers, ROOT_CONTEXT));
    child.end();
    assert.equal(child.spanContext().traceId, parent.spanContext().traceId);
    assert.notEqual(child.spanContext().spanId, parent.spanContext().spanId);
  });
});

describe('currentTraceIds', () => {
  let telemetry: Telemetry;
  before(() => {
    telemetry = initTelemetry({ serviceName: 'ids-spec' });
  });
  after(() => telemetry.shutdown());

  it('is undefined outside any span', () => {
    assert.equal(currentTraceIds(), undefined);
  });

  it('gives the active span ids, across an await', async () => {
    await telemetry.tracer.startActiveSpan('work', async (span) => {
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(currentTraceIds(), { traceId: span.spanContext().traceId, spanId: span.spanContext().spanId });
      span.end();
    });
  });
});
