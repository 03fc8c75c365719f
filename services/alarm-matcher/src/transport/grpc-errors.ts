import { errorMapper, grpcFailure, GrpcStatus, type GrpcError } from '@stormhook/grpc';
import { HTTP_STATUS_OF, type AlarmError } from '../domain/errors.js';

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
export const { toGrpcError, unwrap } = errorMapper<AlarmError>({
  code: {
    'not-found': GrpcStatus.NOT_FOUND,
    validation: GrpcStatus.INVALID_ARGUMENT,
    precondition: GrpcStatus.FAILED_PRECONDITION,
    conflict: GrpcStatus.ALREADY_EXISTS,
    forbidden: GrpcStatus.PERMISSION_DENIED,
    unavailable: GrpcStatus.UNAVAILABLE,
  },
  httpStatus: HTTP_STATUS_OF,
  reason: reasonOf,
  retryAfterMs: (error) => (error.kind === 'unavailable' ? 5_000 : undefined),
  metadata: (error): Record<string, string> => (error.kind === 'validation' ? { field: error.field } : {}),
});

export function badRequest(field: string, message: string): GrpcError {
  return toGrpcError({ kind: 'validation', field, message: `${field} ${message}` });
}

export function unauthenticated(): GrpcError {
  return grpcFailure(GrpcStatus.UNAUTHENTICATED, { reason: 'UNAUTHENTICATED', message: 'The request carries no caller', httpStatus: 401 });
}
