import { resolvedLocation, type ResolvedLocation } from '@stormhook/access';
import { GrpcError, GrpcStatus, type GrpcClient } from '@stormhook/grpc';
import { ErrorMessages } from '@stormhook/errors';
import { commonV1, type geoV1 } from '@stormhook/proto';
import type { GeoResolver } from '../ports/geo-resolver.js';

/**
 * Resolves points with the geo service (stormhook.geo.v1 ResolvePoint): the country code and the
 * city (province) name, which is what subscription regions name. When geo cannot answer, access
 * cannot be decided, so the call fails as UNAVAILABLE (503 at the gateway) rather than guessing.
 */
export class GrpcGeoResolver implements GeoResolver {
  constructor(private readonly geo: Pick<GrpcClient<typeof geoV1.GeoService>, 'resolvePoint'>) {}

  async resolve(point: { lat: number; lng: number }): Promise<ResolvedLocation | undefined> {
    let answer: geoV1.ResolvePointResponse;
    try {
      answer = await this.geo.resolvePoint({ point: { lat: point.lat, lng: point.lng } });
    } catch (error) {
      const message = ErrorMessages.serviceUnavailable;
      throw new GrpcError(
        GrpcStatus.UNAVAILABLE,
        message,
        commonV1.ErrorDetail.create({ reason: 'GEO_UNAVAILABLE', message, messages: [message], httpStatus: 503 }),
        { cause: error },
      );
    }
    return resolvedLocation(answer);
  }
}
