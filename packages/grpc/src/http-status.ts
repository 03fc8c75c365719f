import { GrpcStatus, type GrpcError } from './errors.js';

/**
 * The HTTP status the gateway answers for a gRPC status code: the mapping of google.rpc.Code
 * (and grpc-gateway). Unknown codes are server faults.
 */
export function httpStatusOf(code: GrpcStatus): number {
  switch (code) {
    case GrpcStatus.OK:
      return 200;
    case GrpcStatus.CANCELLED:
      return 499; // client closed request
    case GrpcStatus.INVALID_ARGUMENT:
    case GrpcStatus.FAILED_PRECONDITION:
    case GrpcStatus.OUT_OF_RANGE:
      return 400;
    case GrpcStatus.UNAUTHENTICATED:
      return 401;
    case GrpcStatus.PERMISSION_DENIED:
      return 403;
    case GrpcStatus.NOT_FOUND:
      return 404;
    case GrpcStatus.ALREADY_EXISTS:
    case GrpcStatus.ABORTED:
      return 409;
    case GrpcStatus.RESOURCE_EXHAUSTED:
      return 429;
    case GrpcStatus.UNIMPLEMENTED:
      return 501;
    case GrpcStatus.UNAVAILABLE:
      return 503;
    case GrpcStatus.DEADLINE_EXCEEDED:
      return 504;
    case GrpcStatus.UNKNOWN:
    case GrpcStatus.INTERNAL:
    case GrpcStatus.DATA_LOSS:
    default:
      return 500;
  }
}

/**
 * The HTTP status for a failed call: the server's explicit `detail.httpStatus` when it sent one
 * (402 Payment Required has no gRPC code), else {@link httpStatusOf} of the code.
 */
export function httpStatusOfError(error: GrpcError): number {
  const explicit = error.detail?.httpStatus;
  return explicit !== undefined && explicit >= 400 && explicit <= 599 ? explicit : httpStatusOf(error.code);
}
