import type { Result } from '@stormhook/errors';
import { commonV1 } from '@stormhook/proto';
import { GrpcError, GrpcStatus } from './errors.js';

/** An expected failure of a service: a kind its tables are keyed by and a message safe to show. */
export interface KindedError {
  readonly kind: string;
  readonly message: string;
}

/**
 * How one service's expected failures travel: the gRPC status and the public HTTP status of each
 * kind, and what goes into the ErrorDetail. The detail's shape (main message repeated as the one
 * entry of `messages`, http_status always set) is written here once, so the gateway reads every
 * service's failures the same way.
 */
export interface ErrorMapping<E extends KindedError> {
  readonly code: Readonly<Record<E['kind'], GrpcStatus>>;
  readonly httpStatus: Readonly<Record<E['kind'], number>>;
  /** ErrorDetail.reason. WARNING: the gateway and API clients may match on it; renaming one is a breaking change. */
  readonly reason: (error: E) => string;
  /** ErrorDetail.retry_after_ms (becomes Retry-After); undefined leaves the field absent. */
  readonly retryAfterMs?: (error: E) => number | undefined;
  /** ErrorDetail.metadata, e.g. the public path of the field at fault. */
  readonly metadata?: (error: E) => Readonly<Record<string, string>>;
}

export interface ErrorMapper<E extends KindedError> {
  /** The failure as a gRPC status whose ErrorDetail carries the public status and message. */
  toGrpcError(error: E): GrpcError;
  /** The value of an ok result; a failed one is thrown as its GrpcError (the handler wrapper sends it). */
  unwrap<T>(result: Result<T, E>): T;
}

/** What a failure tells the caller, for {@link grpcFailure}. */
export interface FailureDetail {
  readonly reason: string;
  readonly message: string;
  readonly httpStatus: number;
  readonly retryAfterMs?: number | undefined;
  readonly metadata?: Readonly<Record<string, string>> | undefined;
  readonly cause?: unknown;
}

/** A GrpcError whose ErrorDetail repeats the message as its one `messages` entry and carries the public status. */
export function grpcFailure(code: GrpcStatus, failure: FailureDetail): GrpcError {
  const { reason, message, httpStatus, retryAfterMs, metadata } = failure;
  const detail = commonV1.ErrorDetail.create({
    reason,
    message,
    messages: [message],
    httpStatus,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    metadata: { ...metadata },
  });
  return new GrpcError(code, message, detail, 'cause' in failure ? { cause: failure.cause } : undefined);
}

export function errorMapper<E extends KindedError>(mapping: ErrorMapping<E>): ErrorMapper<E> {
  const toGrpcError = (error: E): GrpcError =>
    grpcFailure(mapping.code[error.kind as E['kind']], {
      reason: mapping.reason(error),
      message: error.message,
      httpStatus: mapping.httpStatus[error.kind as E['kind']],
      retryAfterMs: mapping.retryAfterMs?.(error),
      metadata: mapping.metadata?.(error),
    });
  return {
    toGrpcError,
    unwrap<T>(result: Result<T, E>): T {
      if (!result.ok) throw toGrpcError(result.error);
      return result.value;
    },
  };
}
