import { Metadata, status as GrpcStatus, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import { commonV1 } from '@stormhook/proto';

export { GrpcStatus };

/** Binary trailer that carries a {@link commonV1.ErrorDetail} next to the status (see proto/stormhook/common/v1/error.proto). */
export const ERROR_DETAIL_TRAILER = 'stormhook-error-detail-bin';

/**
 * An expected failure with a gRPC status. Thrown by a handler it becomes that status on the wire
 * (message and detail included, so they must be safe to show); a client rejects with one for every
 * non-OK status it receives.
 */
export class GrpcError extends Error {
  override readonly name = 'GrpcError';

  constructor(
    readonly code: GrpcStatus,
    message: string,
    readonly detail?: commonV1.ErrorDetail,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  /** The status object grpc-js sends: code, message and the detail trailer. */
  toStatus(): Partial<StatusObject> {
    const metadata = new Metadata();
    if (this.detail) metadata.set(ERROR_DETAIL_TRAILER, Buffer.from(commonV1.ErrorDetail.encode(this.detail)));
    return { code: this.code, details: this.message, metadata };
  }
}

function isServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && typeof (error as Partial<ServiceError>).code === 'number' && 'details' in error;
}

function detailOf(metadata: Metadata | undefined): commonV1.ErrorDetail | undefined {
  const raw = metadata?.get(ERROR_DETAIL_TRAILER)[0];
  if (!Buffer.isBuffer(raw)) return undefined;
  try {
    return commonV1.ErrorDetail.decode(raw);
  } catch {
    return undefined; // a malformed detail must not hide the status itself
  }
}

/** What a client call rejects with: the received status as a GrpcError; anything else as INTERNAL. */
export function toGrpcError(error: unknown): GrpcError {
  if (error instanceof GrpcError) return error;
  if (isServiceError(error)) return new GrpcError(error.code, error.details, detailOf(error.metadata), { cause: error });
  const message = error instanceof Error ? error.message : String(error);
  return new GrpcError(GrpcStatus.INTERNAL, message, undefined, { cause: error });
}
