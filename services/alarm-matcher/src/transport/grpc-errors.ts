import { GrpcError, GrpcStatus } from '@stormhook/grpc';
import { commonV1 } from '@stormhook/proto';
import { HTTP_STATUS_OF, type AlarmError, type AlarmErrorKind, type Result } from '../domain/errors.js';

const CODE_OF: Readonly<Record<AlarmErrorKind, GrpcStatus>> = {
  'not-found': GrpcStatus.NOT_FOUND,
  validation: GrpcStatus.INVALID_ARGUMENT,
  precondition: GrpcStatus.FAILED_PRECONDITION,
  conflict: GrpcStatus.ALREADY_EXISTS,
  forbidden: GrpcStatus.PERMISSION_DENIED,
  unavailable: GrpcStatus.UNAVAILABLE,
};

/**
 * ErrorDetail.reason of each failure. WARNING: the gateway and API clients may match on them;
 * renaming one is a breaking change.
 */
function reasonOf(error: AlarmError): string {
  switch (error.kind) {
    case 'not-found':
      return 'REGISTRATION_NOT_FOUND';
    case 'validation':
      return 'VALIDATION_FAILED';
    case 'precondition':
    case 'conflict':
      return error.reason;
    case 'forbidden':
      return 'FORBIDDEN';
    case 'unavailable':
      return `${error.dependency.toUpperCase()}_UNAVAILABLE`;
  }
}

/** An expected failure as a gRPC status whose ErrorDetail carries the public status and message. */
export function toGrpcError(error: AlarmError): GrpcError {
  const detail = commonV1.ErrorDetail.create({
    reason: reasonOf(error),
    message: error.message,
    messages: [error.message],
    httpStatus: HTTP_STATUS_OF[error.kind],
    ...(error.kind === 'unavailable' ? { retryAfterMs: 5_000 } : {}),
    metadata: error.kind === 'validation' ? { field: error.field } : {},
  });
  return new GrpcError(CODE_OF[error.kind], error.message, detail);
}

export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw toGrpcError(result.error);
  return result.value;
}

export function badRequest(field: string, message: string): GrpcError {
  return toGrpcError({ kind: 'validation', field, message: `${field} ${message}` });
}

export function unauthenticated(): GrpcError {
  const message = 'The request carries no caller';
  return new GrpcError(
    GrpcStatus.UNAUTHENTICATED,
    message,
    commonV1.ErrorDetail.create({ reason: 'UNAUTHENTICATED', message, messages: [message], httpStatus: 401 }),
  );
}
