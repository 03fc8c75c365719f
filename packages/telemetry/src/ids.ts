import { context, isSpanContextValid, trace, type Context } from '@opentelemetry/api';

export interface TraceIds {
  traceId: string;
  spanId: string;
}

/** The ids of the span active in `ctx` (default: the current context), or undefined when there is none. */
export function currentTraceIds(ctx: Context = context.active()): TraceIds | undefined {
  const span = trace.getSpan(ctx);
  if (!span) return undefined;
  const spanContext = span.spanContext();
  if (!isSpanContextValid(spanContext)) return undefined;
  return { traceId: spanContext.traceId, spanId: spanContext.spanId };
}
