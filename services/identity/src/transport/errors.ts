import { GrpcError, GrpcStatus } from '@stormhook/grpc';
import { commonV1 } from '@stormhook/proto';
import { HTTP_STATUS_OF, type IdentityError, type IdentityErrorKind } from '../errors.js';
import type { Result } from '../result.js';

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

const CODE_OF: Readonly<Record<IdentityErrorKind, GrpcStatus>> = {
  'not-found': GrpcStatus.NOT_FOUND,
  'invalid-credentials': GrpcStatus.UNAUTHENTICATED,
  conflict: GrpcStatus.ALREADY_EXISTS,
  forbidden: GrpcStatus.PERMISSION_DENIED,
  validation: GrpcStatus.INVALID_ARGUMENT,
  'rate-limited': GrpcStatus.RESOURCE_EXHAUSTED,
  expired: GrpcStatus.FAILED_PRECONDITION,
};

/**
 * An expected failure as a gRPC status with an ErrorDetail whose http_status is the public status,
 * so the gateway answers exactly what the use case meant (a validation error names its field in the
 * message and in metadata; a rate limit carries retry_after_ms for Retry-After).
 */
export function toGrpcError(error: IdentityError): GrpcError {
  const detail = commonV1.ErrorDetail.create({
    reason: IDENTITY_REASONS[error.kind],
    message: error.message,
    messages: [error.message],
    httpStatus: HTTP_STATUS_OF[error.kind],
    ...(error.kind === 'rate-limited' ? { retryAfterMs: error.retryAfterSeconds * 1000 } : {}),
    metadata: error.kind === 'validation' ? { field: error.field } : error.kind === 'not-found' ? { entity: error.entity } : {},
  });
  return new GrpcError(CODE_OF[error.kind], error.message, detail);
}

/** The value of an ok result; a failed one is thrown as its GrpcError (the handler wrapper sends it). */
export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw toGrpcError(result.error);
  return result.value;
}
