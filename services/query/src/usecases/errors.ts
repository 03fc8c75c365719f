import { ErrorMessages, outsideGeographicBoundaries } from '@stormhook/errors';
import { GrpcError, GrpcStatus } from '@stormhook/grpc';
import { commonV1 } from '@stormhook/proto';

/**
 * The failures the query API answers with, each carrying the public status and message (see
 * proto/stormhook/common/v1/error.proto) so the gateway copies them into an ErrorResponse.
 * Reasons are part of the contract with the gateway: rename with care.
 */
function failure(code: GrpcStatus, httpStatus: number, reason: string, message: string, messages: string[] = []): GrpcError {
  return new GrpcError(code, message, commonV1.ErrorDetail.create({ reason, message, messages, httpStatus }));
}

/** 400 naming the field, e.g. `radius must be at most 200000 (meters)`. */
export function invalidArgument(problems: readonly string[]): GrpcError {
  return failure(GrpcStatus.INVALID_ARGUMENT, 400, 'INVALID_ARGUMENT', problems.length === 1 ? problems[0]! : 'The request is invalid', [...problems]);
}

export function notFound(message: string): GrpcError {
  return failure(GrpcStatus.NOT_FOUND, 404, 'NOT_FOUND', message);
}

/** 403 with the contract's location message (interface.md 7). */
export function outsideGeography(lat: number, lng: number, country: string, region: string): GrpcError {
  return failure(GrpcStatus.PERMISSION_DENIED, 403, 'OUTSIDE_GEOGRAPHY', outsideGeographicBoundaries(lat, lng, country, region));
}

/** 503: the subscription areas are not loaded yet (the geo service was not reachable). */
export function areasUnavailable(): GrpcError {
  return failure(GrpcStatus.UNAVAILABLE, 503, 'AREAS_UNAVAILABLE', ErrorMessages.serviceUnavailable);
}
