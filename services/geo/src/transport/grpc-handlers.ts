import { GrpcError, GrpcStatus } from '@stormhook/grpc';
import { commonV1, type geoV1 } from '@stormhook/proto';
import type { AreaRef } from '../domain/area.js';
import type { GeoError, GeoResult } from '../domain/geo-error.js';
import type { GeoQueries } from '../domain/geo-queries.js';
import type { QueryShape } from '../domain/geometry/query-shape.js';
import {
  areaRefToProto,
  cityToProto,
  districtToProto,
  levelFromProto,
  multiPolygonToProto,
  neighbourhoodToProto,
  polygonFromProto,
  resolvedToProto,
} from './proto-mapping.js';

function toGrpcError(error: GeoError): GrpcError {
  const code = error.kind === 'not-found' ? GrpcStatus.NOT_FOUND : GrpcStatus.INVALID_ARGUMENT;
  const reason = error.kind === 'not-found' ? 'AREA_NOT_FOUND' : error.kind === 'unsupported-country' ? 'UNSUPPORTED_COUNTRY' : 'INVALID_ARGUMENT';
  return new GrpcError(code, error.message, commonV1.ErrorDetail.create({ reason, message: error.message }));
}

function unwrap<T>(result: GeoResult<T>): T {
  if (!result.ok) throw toGrpcError(result.error);
  return result.value;
}

function tolerance(request: { simplifyToleranceM: number }) {
  return request.simplifyToleranceM > 0 ? { simplifyToleranceM: request.simplifyToleranceM } : {};
}

function invalid(field: string, message: string): GrpcError {
  const text = `${field}: ${message}`;
  return new GrpcError(GrpcStatus.INVALID_ARGUMENT, text, commonV1.ErrorDetail.create({ reason: 'INVALID_ARGUMENT', message: text }));
}

/**
 * The geo gRPC API over the use cases. `queries` is read on every call, so a re-import can swap in
 * a new snapshot without restarting the server.
 */
export function geoHandlers(queries: () => GeoQueries): geoV1.GeoServiceHandlers {
  return {
    async listCountries() {
      return {
        countries: queries()
          .listCountries()
          .map((c) => ({
            code: c.code,
            name: c.name,
            cityCount: c.cityCount,
            districtCount: c.districtCount,
            neighbourhoodCount: c.neighbourhoodCount,
          })),
      };
    },
    async listCities(request) {
      return { cities: unwrap(queries().listCities(request.countryCode, tolerance(request))).map(cityToProto) };
    },
    async getCity(request) {
      return cityToProto(unwrap(queries().getCity(request.id, tolerance(request))));
    },
    async getDistrict(request) {
      return districtToProto(unwrap(queries().getDistrict(request.id, tolerance(request))));
    },
    async getNeighbourhood(request) {
      return neighbourhoodToProto(unwrap(queries().getNeighbourhood(request.id, tolerance(request))));
    },
    async resolvePoint(request) {
      if (!request.point) throw invalid('point', 'is required');
      const resolution = unwrap(queries().resolvePoint(request.point.lng, request.point.lat));
      return {
        countryCode: resolution.country ?? '',
        city: resolvedToProto(resolution.city),
        district: resolvedToProto(resolution.district),
        neighbourhood: resolvedToProto(resolution.neighbourhood),
      };
    },
    async getPolygons(request) {
      const refs: AreaRef[] = request.areas.map((a, i) => {
        const level = levelFromProto(a.level);
        if (!level) throw invalid(`areas[${i}].level`, `must be a city, district or neighbourhood level`);
        return { level, id: a.id };
      });
      const areas = unwrap(queries().polygonsOf(refs, request.simplifyToleranceM > 0 ? request.simplifyToleranceM : undefined));
      return {
        areas: areas.map((a) => ({ area: areaRefToProto(a), name: a.name, geometry: multiPolygonToProto(a.geometry) })),
      };
    },
    async findIntersecting(request) {
      const level = levelFromProto(request.level);
      let shape: QueryShape;
      if (request.polygon) shape = { kind: 'polygon', polygon: polygonFromProto(request.polygon) };
      else if (request.circle?.center) {
        shape = { kind: 'circle', circle: { center: [request.circle.center.lng, request.circle.center.lat], radiusM: request.circle.radiusM } };
      } else throw invalid('shape', 'a polygon or a circle with a center is required');
      return { areas: unwrap(queries().intersecting(shape, level)).map(areaRefToProto) };
    },
  };
}
