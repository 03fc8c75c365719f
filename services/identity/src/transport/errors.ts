import { errorMapper, GrpcStatus } from '@stormhook/grpc';
import { HTTP_STATUS_OF, type IdentityError, type IdentityErrorKind } from '../errors.js';

/**
 * Reasons identity puts into ErrorDetail.reason.
 * WARNING: the gateway and API clients may match on them; renaming one is a breaking change.
 */
export const IDENTITY_REASONS: Readonly<Record<IdentityErrorKind, string>> = {
  'not-found': 'NOT_FOUND',
  'invalid-credentials': 'INVALID_CREDENTIALS',
  conflict: 'CONFLICT',
  forbidden: 'FORBIDDEN',
  validation: 'VALIDATION_FAILED',
  'rate-limited': 'TOO_MANY_ATTEMPTS',
  expired: 'TOKEN_EXPIRED_OR_USED',
};

/**
 * Identity's failures as gRPC statuses with an ErrorDetail whose http_status is the public status,
 * so the gateway answers exactly what the use case meant (a validation error names its field in the
 * message and in metadata; a rate limit carries retry_after_ms for Retry-After).
 */
export const { toGrpcError, unwrap } = errorMapper<IdentityError>({
  code: {
    'not-found': GrpcStatus.NOT_FOUND,
    'invalid-credentials': GrpcStatus.UNAUTHENTICATED,
    conflict: GrpcStatus.ALREADY_EXISTS,
    forbidden: GrpcStatus.PERMISSION_DENIED,
    validation: GrpcStatus.INVALID_ARGUMENT,
    'rate-limited': GrpcStatus.RESOURCE_EXHAUSTED,
    expired: GrpcStatus.FAILED_PRECONDITION,
  },
  httpStatus: HTTP_STATUS_OF,
  reason: (error) => IDENTITY_REASONS[error.kind],
  retryAfterMs: (error) => (error.kind === 'rate-limited' ? error.retryAfterSeconds * 1000 : undefined),
  metadata: (error): Record<string, string> =>
    error.kind === 'validation' ? { field: error.field } : error.kind === 'not-found' ? { entity: error.entity } : {},
});
