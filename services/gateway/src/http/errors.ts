import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { ApiError, ErrorMessages, errorResponse } from '@stormhook/errors';
import { GrpcError, GrpcStatus, httpStatusOfError } from '@stormhook/grpc';
import { context, trace } from '@stormhook/telemetry';
import type { Logger } from '@stormhook/logger';
import { requestState } from './request-state.js';

/** Writes an ErrorResponse; error answers are never cached (they may be about one caller's quota or identity). */
export function sendError(req: Request, res: Response, status: number, message: string, messages?: readonly string[]): void {
  res
    .status(status)
    .set('Cache-Control', 'no-store')
    .json(errorResponse(status, message, req.path, messages));
}

/** Last in the chain: no route matched the path and method. */
export const notFoundHandler: RequestHandler = (req, res) => {
  sendError(req, res, 404, `${ErrorMessages.notFound}: ${req.method} ${req.path}`);
};

export const MALFORMED_PATH = 'The request path has malformed percent-encoding';

/** The shape of the errors body-parser raises (http-errors with a `type`). */
interface BodyParserError {
  type?: unknown;
  status?: unknown;
  expose?: unknown;
  message?: unknown;
  limit?: unknown;
}

function asBodyParserError(error: unknown): { type: string; status: number; expose: boolean; message: string; limit?: number } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const candidate = error as BodyParserError;
  if (typeof candidate.type !== 'string' || typeof candidate.status !== 'number') return undefined;
  return {
    type: candidate.type,
    status: candidate.status,
    expose: candidate.expose === true,
    message: typeof candidate.message === 'string' ? candidate.message : '',
    ...(typeof candidate.limit === 'number' ? { limit: candidate.limit } : {}),
  };
}

/**
 * A backing service's answer as the caller sees it: its status and safe message for expected
 * failures (not found, invalid argument, quota...), a clear 503 when the service or its database is
 * unreachable, and the contract's generic 500 message for anything else.
 */
function fromGrpc(error: GrpcError): ApiError | undefined {
  const status = httpStatusOfError(error);
  if (error.code === GrpcStatus.UNAVAILABLE || error.code === GrpcStatus.DEADLINE_EXCEEDED) {
    return new ApiError(503, ErrorMessages.serviceUnavailable);
  }
  if (status >= 500) return undefined;
  const detail = error.detail;
  return new ApiError(status, detail?.message || error.message, detail && detail.messages.length > 0 ? detail.messages : undefined);
}

/** ApiErrors, and what the JSON parser throws mapped to the caller's view of it; undefined for anything unexpected. */
function knownErrorOf(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  // The router's decoding of a path parameter (`/v1/users/%ZZ`): the client's malformed URL.
  if (error instanceof URIError) return new ApiError(400, MALFORMED_PATH);
  if (error instanceof GrpcError) return fromGrpc(error);
  const parser = asBodyParserError(error);
  if (!parser || parser.status < 400 || parser.status >= 500) return undefined;
  switch (parser.type) {
    case 'entity.parse.failed':
      return new ApiError(400, ErrorMessages.malformedJson);
    case 'entity.too.large':
      return new ApiError(413, parser.limit === undefined ? ErrorMessages.payloadTooLarge : `${ErrorMessages.payloadTooLarge} (limit ${parser.limit} bytes)`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError(415, parser.message || ErrorMessages.unsupportedMediaType);
    default:
      return parser.expose ? new ApiError(parser.status, parser.message || 'Bad Request') : undefined;
  }
}

/**
 * Every failure ends here and leaves as ErrorResponse JSON, never express's HTML page. Unexpected
 * errors are logged inside the request's trace and answered with the contract's generic message, so
 * no internal detail reaches the caller.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const state = requestState(req);
    const known = knownErrorOf(error);
    const fields = { method: req.method, path: req.path, operationId: state.operation?.operationId };
    // Logged inside the request's trace so the line carries its trace id.
    context.with(state.traceContext ?? context.active(), () => {
      if (known === undefined) {
        if (error instanceof Error) trace.getSpan(context.active())?.recordException(error);
        logger.error({ ...fields, err: error }, 'unexpected error while handling request');
      } else if (known.status >= 500 && known.status !== 501) {
        // 501 is the planned answer of an operation not wired yet, not an incident.
        logger.warn({ ...fields, err: error, status: known.status }, 'request failed');
      }
    });
    if (res.headersSent) {
      // Part of the answer is on the wire; cutting the connection is the only honest signal left.
      req.socket.destroy();
      return;
    }
    if (known === undefined) sendError(req, res, 500, ErrorMessages.invocationFailed);
    else sendError(req, res, known.status, known.message, known.messages);
  };
}
