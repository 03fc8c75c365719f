import assert from 'node:assert/strict';
import { ROOT_CONTEXT, TraceFlags, context, trace, type Context, type ContextManager } from '@opentelemetry/api';
import { createLogger } from './create-logger.js';

/** Collects what pino writes, one parsed JSON object per line. */
function collector(): { write(line: string): void; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  return { lines, write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) };
}

/**
 * The smallest synchronous context manager: enough to make a span "active" without depending on the
 * telemetry SDK from this package.
 */
class StackContextManager implements ContextManager {
  private current: Context = ROOT_CONTEXT;
  active(): Context {
    return this.current;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    const previous = this.current;
    this.current = ctx;
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.current = previous;
    }
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.current = ROOT_CONTEXT;
    return this;
  }
}

describe('createLogger', () => {
  // When the whole workspace runs in one mocha process another suite may have registered a real
  // context manager already; that one serves as well, and is left in place.
  let registered = false;
  before(() => {
    registered = context.setGlobalContextManager(new StackContextManager());
  });
  after(() => {
    if (registered) context.disable();
  });

  it('writes JSON with service, ISO time and level name', () => {
    const out = collector();
    createLogger({ service: 'geo', destination: out }).info({ city: 'Ankara' }, 'hello');
    const line = out.lines[0];
    assert.equal(out.lines.length, 1);
    assert.equal(line?.['service'], 'geo');
    assert.equal(line?.['level'], 'info');
    assert.equal(line?.['msg'], 'hello');
    assert.equal(line?.['city'], 'Ankara');
    assert.match(String(line?.['time']), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(line?.['trace_id'], undefined);
  });

  it('adds trace_id and span_id of the active span', () => {
    const out = collector();
    const logger = createLogger({ service: 'geo', destination: out });
    const spanContext = {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: TraceFlags.SAMPLED,
    };
    context.with(trace.setSpanContext(ROOT_CONTEXT, spanContext), () => logger.info('inside'));
    logger.info('outside');
    assert.equal(out.lines[0]?.['trace_id'], spanContext.traceId);
    assert.equal(out.lines[0]?.['span_id'], spanContext.spanId);
    assert.equal(out.lines[1]?.['trace_id'], undefined);
  });

  it('honours the level', () => {
    const out = collector();
    const logger = createLogger({ service: 'geo', level: 'warn', destination: out });
    logger.info('dropped');
    logger.warn('kept');
    assert.deepEqual(
      out.lines.map((l) => l['msg']),
      ['kept'],
    );
  });

  it('redacts credentials', () => {
    const out = collector();
    const logger = createLogger({ service: 'geo', destination: out, redact: ['webhook.apiKey'] });
    logger.info({ headers: { authorization: 'Bearer abc' }, webhook: { apiKey: 'k', url: 'https://x' }, password: 'p' }, 'x');
    const line = out.lines[0];
    assert.deepEqual(line?.['headers'], { authorization: '[redacted]' });
    assert.deepEqual(line?.['webhook'], { apiKey: '[redacted]', url: 'https://x' });
    assert.equal(line?.['password'], '[redacted]');
  });
});
