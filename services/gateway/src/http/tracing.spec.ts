import assert from 'node:assert/strict';
import { InMemorySpanExporter, SimpleSpanProcessor, SpanKind, SpanStatusCode, initTelemetry, type ReadableSpan, type Telemetry } from '@stormhook/telemetry';
import { recordingLogger, request, serve, type RunningApp } from '../test-support/serve.js';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const PARENT_SPAN_ID = 'b7ad6b7169203331';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN_ID}-01`;
const TRACEPARENT_FORMAT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

describe('request tracing', () => {
  const exporter = new InMemorySpanExporter();
  const recorded = recordingLogger();
  let telemetry: Telemetry;
  let app: RunningApp;

  before(async () => {
    telemetry = initTelemetry({ serviceName: 'gateway-test', spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    app = await serve({
      tracer: telemetry.tracer,
      logger: recorded.logger,
      handlers: {
        getCurrentUser: () => {
          throw new Error('boom');
        },
      },
    });
  });
  beforeEach(() => exporter.reset());
  after(async () => {
    await app.close();
    await telemetry.shutdown();
  });

  /** The span ends on the response's finish event, which may trail the client by a tick. */
  async function finishedSpan(): Promise<ReadableSpan> {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const span = exporter.getFinishedSpans().find((candidate) => candidate.kind === SpanKind.SERVER);
      if (span) return span;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.fail('no server span was finished');
  }

  it('continues the incoming trace in a SERVER span named METHOD /route and echoes its traceparent', async () => {
    const answer = await request(
      app.baseUrl,
      'POST',
      '/v1/thunderstorms/page',
      { backwardInterval: 600, endTimeEpoch: 1, pageNumber: 0, pageSize: 10 },
      { traceparent: TRACEPARENT },
    );
    const echoed = TRACEPARENT_FORMAT.exec(answer.headers.get('traceparent') ?? '');
    assert.ok(echoed, 'a traceparent is echoed');
    assert.equal(echoed[1], TRACE_ID);
    assert.notEqual(echoed[2], PARENT_SPAN_ID);

    const span = await finishedSpan();
    assert.equal(span.name, 'POST /v1/thunderstorms/page');
    assert.equal(span.spanContext().traceId, TRACE_ID);
    assert.equal(span.spanContext().spanId, echoed[2]);
    assert.equal(span.parentSpanContext?.spanId, PARENT_SPAN_ID);
    assert.equal(span.attributes['http.route'], '/v1/thunderstorms/page');
    assert.equal(span.attributes['http.request.method'], 'POST');
    assert.equal(span.attributes['http.response.status_code'], 501);
  });

  it('uses the route template, not the concrete path, in the span name', async () => {
    await request(app.baseUrl, 'GET', '/v1/alarms/forecasts/district/557');
    const span = await finishedSpan();
    assert.equal(span.name, 'GET /v1/alarms/forecasts/district/{districtId}');
    assert.equal(span.attributes['url.path'], '/v1/alarms/forecasts/district/557');
  });

  it('starts a new trace without an incoming traceparent, and names unmatched requests by method only', async () => {
    const answer = await request(app.baseUrl, 'GET', '/v1/unknown');
    const echoed = TRACEPARENT_FORMAT.exec(answer.headers.get('traceparent') ?? '');
    assert.ok(echoed);
    const span = await finishedSpan();
    assert.equal(span.name, 'GET');
    assert.equal(span.spanContext().traceId, echoed[1]);
    assert.equal(span.parentSpanContext, undefined);
    assert.equal(span.status.code, SpanStatusCode.UNSET);
  });

  it('marks a 500 as an error and logs it with the trace id', async () => {
    const before = recorded.lines.length;
    const answer = await request(app.baseUrl, 'GET', '/v1/users/me', undefined, { traceparent: TRACEPARENT });
    assert.equal(answer.status, 500);
    const span = await finishedSpan();
    assert.equal(span.status.code, SpanStatusCode.ERROR);
    assert.ok(span.events.some((event) => event.name === 'exception'));
    const logged = recorded.lines.slice(before).find((line) => line['level'] === 'error');
    assert.equal(logged?.['trace_id'], TRACE_ID);
    assert.equal(logged?.['span_id'], span.spanContext().spanId);
  });

  it('does not trace health probes', async () => {
    await request(app.baseUrl, 'GET', '/v1/health/live');
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(exporter.getFinishedSpans().length, 0);
  });
});

describe('request tracing without an exporter', () => {
  const recorded = recordingLogger();
  let telemetry: Telemetry;
  let app: RunningApp;

  before(async () => {
    telemetry = initTelemetry({ serviceName: 'gateway-test-unexported' });
    app = await serve({
      tracer: telemetry.tracer,
      logger: recorded.logger,
      handlers: {
        getCurrentUser: () => {
          throw new Error('boom');
        },
      },
    });
  });
  after(async () => {
    await app.close();
    await telemetry.shutdown();
  });

  it('still echoes a traceparent and logs errors with its trace id, unsampled unless the caller sampled', async () => {
    const before = recorded.lines.length;
    const answer = await request(app.baseUrl, 'GET', '/v1/users/me');
    assert.equal(answer.status, 500);
    const echoed = /^00-([0-9a-f]{32})-([0-9a-f]{16})-00$/.exec(answer.headers.get('traceparent') ?? '');
    assert.ok(echoed, `unsampled traceparent echoed: ${answer.headers.get('traceparent')}`);
    const logged = recorded.lines.slice(before).find((line) => line['level'] === 'error');
    assert.equal(logged?.['trace_id'], echoed[1]);

    const followed = await request(app.baseUrl, 'GET', '/v1/unknown', undefined, { traceparent: TRACEPARENT });
    const continued = TRACEPARENT_FORMAT.exec(followed.headers.get('traceparent') ?? '');
    assert.equal(continued?.[1], TRACE_ID);
    assert.ok(followed.headers.get('traceparent')?.endsWith('-01'), "the caller's sampled flag is passed on");
  });
});
