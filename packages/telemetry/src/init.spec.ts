import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROOT_CONTEXT, TraceFlags, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { initTelemetry } from './init.js';

function memory(): { exporter: InMemorySpanExporter; processor: SimpleSpanProcessor } {
  const exporter = new InMemorySpanExporter();
  return { exporter, processor: new SimpleSpanProcessor({ exporter }) };
}

describe('initTelemetry', () => {
  it('records spans of the returned tracer and of the global tracer into the given processors', async () => {
    const { exporter, processor } = memory();
    const telemetry = initTelemetry({ serviceName: 'init-spec', spanProcessors: [processor] });
    try {
      telemetry.tracer.startSpan('own').end();
      trace.getTracer('library').startSpan('global').end();
      const spans = exporter.getFinishedSpans();
      assert.deepEqual(
        spans.map((s) => s.name),
        ['own', 'global'],
      );
      assert.equal(spans[0]?.resource.attributes['service.name'], 'init-spec');
    } finally {
      await telemetry.shutdown();
    }
  });

  it('can be called twice: the second registration replaces the first globally', async () => {
    const first = memory();
    const second = memory();
    const one = initTelemetry({ serviceName: 'first', spanProcessors: [first.processor] });
    const two = initTelemetry({ serviceName: 'second', spanProcessors: [second.processor] });
    try {
      trace.getTracer('library').startSpan('after-second-init').end();
      assert.deepEqual(
        second.exporter.getFinishedSpans().map((s) => s.name),
        ['after-second-init'],
      );
      assert.equal(first.exporter.getFinishedSpans().length, 0);

      // Shutting down the older instance must not unregister the newer one's globals.
      await one.shutdown();
      trace.getTracer('library').startSpan('after-first-shutdown').end();
      assert.equal(second.exporter.getFinishedSpans().length, 2);

      // Parent/child through the AsyncLocalStorage context manager still works on the new registration.
      two.tracer.startActiveSpan('parent', (parent) => {
        two.tracer.startSpan('child').end();
        parent.end();
      });
      const child = second.exporter.getFinishedSpans().find((s) => s.name === 'child');
      const parent = second.exporter.getFinishedSpans().find((s) => s.name === 'parent');
      assert.equal(child?.parentSpanContext?.spanId, parent?.spanContext().spanId);
    } finally {
      await two.shutdown();
    }
  });

  it('unregisters the globals on shutdown of the current instance', async () => {
    const { exporter, processor } = memory();
    const telemetry = initTelemetry({ serviceName: 'shutdown-spec', spanProcessors: [processor] });
    await telemetry.shutdown();
    await telemetry.shutdown(); // idempotent
    const span = trace.getTracer('library').startSpan('after-shutdown');
    span.end();
    assert.equal(span.isRecording(), false);
    assert.equal(exporter.getFinishedSpans().length, 0);
  });

  it('without an exporter records nothing of its own but keeps ids and follows a sampled caller', async () => {
    const telemetry = initTelemetry({ serviceName: 'no-exporter-spec' });
    try {
      const root = telemetry.tracer.startSpan('root');
      root.end();
      assert.equal(root.isRecording(), false);
      assert.match(root.spanContext().traceId, /^[0-9a-f]{32}$/);
      assert.notEqual(root.spanContext().traceId, '0'.repeat(32));
      assert.equal(root.spanContext().traceFlags, TraceFlags.NONE);

      const caller = trace.setSpanContext(ROOT_CONTEXT, { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: TraceFlags.SAMPLED, isRemote: true });
      const child = telemetry.tracer.startSpan('child', {}, caller);
      child.end();
      assert.equal(child.spanContext().traceId, 'a'.repeat(32));
      assert.equal(child.spanContext().traceFlags, TraceFlags.SAMPLED, "the caller's sampled decision is passed on");
    } finally {
      await telemetry.shutdown();
    }
  });

  it('exports to the OTLP/HTTP endpoint at /v1/traces when one is given', async () => {
    const received: string[] = [];
    const server = createServer((req, res) => {
      received.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const telemetry = initTelemetry({ serviceName: 'otlp-spec', otlpEndpoint: `http://127.0.0.1:${port}/` });
      telemetry.tracer.startSpan('exported').end();
      await telemetry.shutdown(); // flushes the batch processor
      assert.deepEqual(received, ['POST /v1/traces']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
