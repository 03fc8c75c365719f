import type { Request, RequestHandler, Response } from 'express';
import { SpanKind, SpanStatusCode, context, extractTraceContext, injectTraceContext, trace, type Tracer } from '@stormhook/telemetry';
import { requestState } from './request-state.js';

export interface TracingOptions {
  tracer: Tracer;
  /** Paths not traced (probes polled every few seconds would drown the real traffic). */
  ignorePaths?: readonly string[];
}

function routeOf(req: Request): string | undefined {
  return requestState(req).operation?.path;
}

/**
 * Runs each request in a SERVER span that continues the caller's W3C trace, named `METHOD /route`
 * once the route is known, and echoes the span's `traceparent` so a caller can find its trace.
 */
export function tracing({ tracer, ignorePaths = [] }: TracingOptions): RequestHandler {
  const ignored = new Set(ignorePaths);
  return (req, res, next) => {
    if (ignored.has(req.path)) {
      next();
      return;
    }
    const parent = extractTraceContext(req.headers);
    const span = tracer.startSpan(
      req.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': req.method,
          'url.path': req.path,
          'url.scheme': req.protocol,
        },
      },
      parent,
    );
    const active = trace.setSpan(parent, span);
    requestState(req).traceContext = active;
    const traceparent = injectTraceContext({}, active)['traceparent'];
    if (traceparent !== undefined) res.setHeader('traceparent', traceparent);

    // A span nobody records (no exporter: see initTelemetry) has nothing to end or name; its ids are
    // in the context and the header already. Two listeners per request saved.
    if (!span.isRecording()) {
      context.with(active, next);
      return;
    }
    let ended = false;
    const end = (target: Response): void => {
      if (ended) return;
      ended = true;
      const route = routeOf(req);
      const status = target.statusCode;
      if (route !== undefined) {
        span.updateName(`${req.method} ${route}`);
        span.setAttribute('http.route', route);
      }
      const operationId = requestState(req).operation?.operationId;
      if (operationId !== undefined) span.setAttribute('stormhook.operation_id', operationId);
      span.setAttribute('http.response.status_code', status);
      // Server spans: only 5xx are the server's fault (OpenTelemetry HTTP semantic conventions).
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: `HTTP ${status}` });
      if (!target.writableFinished) span.setAttribute('http.response.aborted', true);
      span.end();
    };
    res.once('finish', () => end(res));
    res.once('close', () => end(res));
    context.with(active, next);
  };
}
