import { errorMapper, grpcFailure, GrpcStatus, isDependencyOutage } from '@stormhook/grpc';
import { HTTP_STATUS_OF, type NotifierError, type NotifierErrorKind } from '../domain/notifier-error.js';

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

/**
 * A use-case failure as a gRPC status whose ErrorDetail carries the public HTTP status, so the gateway
 * answers 400/404/409 with our message; a validation message starts with the public field path
 * (`webhook.deliveryPolicy.timeout must be an integer between 500 and 30000 milliseconds`), and the
 * path is also in metadata.field.
 */
export const { toGrpcError, unwrap } = errorMapper<NotifierError>({
  code: {
    'not-found': GrpcStatus.NOT_FOUND,
    conflict: GrpcStatus.ALREADY_EXISTS,
    validation: GrpcStatus.INVALID_ARGUMENT,
    limit: GrpcStatus.RESOURCE_EXHAUSTED,
  },
  httpStatus: HTTP_STATUS_OF,
  reason: (error) => NOTIFIER_REASONS[error.kind],
  metadata: (error): Record<string, string> => (error.kind === 'validation' ? { field: error.field } : {}),
});

/**
 * Database outages become UNAVAILABLE with a 503 and a clear message (reliability rules: fail fast,
 * recover without a restart); anything else is left to the wrapper, which answers a bare INTERNAL.
 */
export function translateFailure(error: unknown): unknown {
  if (!isDependencyOutage(error)) return error;
  return grpcFailure(GrpcStatus.UNAVAILABLE, {
    reason: DATABASE_UNAVAILABLE_REASON,
    message: 'The webhook service cannot reach its database; try again shortly',
    httpStatus: 503,
    retryAfterMs: 5_000,
    cause: error,
  });
}
