import { GrpcError, GrpcStatus } from '@stormhook/grpc';
import { commonV1 } from '@stormhook/proto';
import { MongoNetworkError, MongoNotConnectedError, MongoServerSelectionError, MongoTopologyClosedError } from 'mongodb';
import { HTTP_STATUS_OF, type NotifierError, type NotifierErrorKind, type Result } from '../domain/notifier-error.js';

/**
 * Reasons the notifier puts into ErrorDetail.reason.
 * WARNING: the gateway and API clients may match on them; renaming one is a breaking change.
 */
export const NOTIFIER_REASONS: Readonly<Record<NotifierErrorKind, string>> = {
  'not-found': 'NOT_FOUND',
  conflict: 'CONFLICT',
  validation: 'VALIDATION_FAILED',
  limit: 'LIMIT_EXCEEDED',
};
export const DATABASE_UNAVAILABLE_REASON = 'NOTIFIER_DATABASE_UNAVAILABLE';

const CODE_OF: Readonly<Record<NotifierErrorKind, GrpcStatus>> = {
  'not-found': GrpcStatus.NOT_FOUND,
  conflict: GrpcStatus.ALREADY_EXISTS,
  validation: GrpcStatus.INVALID_ARGUMENT,
  limit: GrpcStatus.RESOURCE_EXHAUSTED,
};

/**
 * A use-case failure as a gRPC status whose ErrorDetail carries the public HTTP status, so the gateway
 * answers 400/404/409 with our message; a validation message starts with the public field path
 * (`webhook.deliveryPolicy.timeout must be an integer between 500 and 30000 milliseconds`), and the
 * path is also in metadata.field.
 */
export function toGrpcError(error: NotifierError): GrpcError {
  const detail = commonV1.ErrorDetail.create({
    reason: NOTIFIER_REASONS[error.kind],
    message: error.message,
    messages: [error.message],
    httpStatus: HTTP_STATUS_OF[error.kind],
    metadata: error.kind === 'validation' ? { field: error.field } : {},
  });
  return new GrpcError(CODE_OF[error.kind], error.message, detail);
}

/** The value of an ok result; a failed one is thrown as its GrpcError (the handler wrapper sends it). */
export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw toGrpcError(result.error);
  return result.value;
}

function isDatabaseOutage(error: unknown): boolean {
  return (
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoTopologyClosedError
  );
}

/**
 * Database outages become UNAVAILABLE with a 503 and a clear message (reliability rules: fail fast,
 * recover without a restart); anything else is left to the wrapper, which answers a bare INTERNAL.
 */
export function translateFailure(error: unknown): unknown {
  if (!isDatabaseOutage(error)) return error;
  const message = 'The webhook service cannot reach its database; try again shortly';
  return new GrpcError(
    GrpcStatus.UNAVAILABLE,
    message,
    commonV1.ErrorDetail.create({ reason: DATABASE_UNAVAILABLE_REASON, message, messages: [message], httpStatus: 503, retryAfterMs: 5_000 }),
    { cause: error },
  );
}
