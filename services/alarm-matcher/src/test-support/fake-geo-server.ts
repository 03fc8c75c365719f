import { square } from '@stormhook/geometry/testing';
import { type MultiPolygon, pointInMultiPolygon } from '@stormhook/geometry';
import { createGrpcServer, GrpcError, GrpcStatus, type GrpcServer, type HandlersOf } from '@stormhook/grpc';
import type { Logger } from '@stormhook/logger';
import { geoV1, type commonV1 } from '@stormhook/proto';

/**
 * A tiny in-process GeoService with square areas, so integration tests know exactly what is inside
 * and outside. (The real geo service lives in another workspace package this one does not depend
 * on; its boundary data and index are tested there.)
 *
 *   city 6 "Ankara"      lng 32.0-33.0, lat 39.5-40.5
 *     district 1231 "Çankaya"   lng 32.5-33.0, lat 39.5-40.0
 *     district 1232 "Keçiören"  lng 32.0-32.5, lat 40.0-40.5
 *   city 34 "İstanbul"   lng 28.5-29.5, lat 40.8-41.3
 *     district 1421 "Kadıköy"   lng 29.0-29.1, lat 40.95-41.05
 *       neighbourhood 101 "Moda"  lng 29.02-29.04, lat 40.98-41.0
 */
interface FakeArea {
  id: number;
  name: string;
  geometry: MultiPolygon;
  parent?: number;
}

export const FAKE_CITIES: FakeArea[] = [
  { id: 6, name: 'Ankara', geometry: square(32.0, 39.5, 1.0) },
  { id: 34, name: 'İstanbul', geometry: square(28.5, 40.8, 0.5) },
];
export const FAKE_DISTRICTS: FakeArea[] = [
  { id: 1231, name: 'Çankaya', geometry: square(32.5, 39.5, 0.5), parent: 6 },
  { id: 1232, name: 'Keçiören', geometry: square(32.0, 40.0, 0.5), parent: 6 },
  { id: 1421, name: 'Kadıköy', geometry: square(29.0, 40.95, 0.1), parent: 34 },
];
export const FAKE_NEIGHBOURHOODS: FakeArea[] = [{ id: 101, name: 'Moda', geometry: square(29.02, 40.98, 0.02), parent: 1421 }];

function toProto(multi: MultiPolygon): commonV1.MultiPolygon {
  return {
    polygons: multi.map((part) => ({
      exterior: { points: part.exterior.map(([lng, lat]) => ({ lng, lat })) },
      holes: part.holes.map((hole) => ({ points: hole.map(([lng, lat]) => ({ lng, lat })) })),
    })),
  };
}

function notFound(what: string): GrpcError {
  return new GrpcError(GrpcStatus.NOT_FOUND, `${what} not found`);
}

function cityOf(id: number): geoV1.City {
  const city = FAKE_CITIES.find((c) => c.id === id);
  if (!city) throw notFound(`city ${id}`);
  return { id: city.id, name: city.name, countryCode: 'TUR', licensePlateCode: city.id, geometry: toProto(city.geometry) };
}

function districtOf(id: number): geoV1.District {
  const district = FAKE_DISTRICTS.find((d) => d.id === id);
  if (!district) throw notFound(`district ${id}`);
  return { id: district.id, name: district.name, geometry: toProto(district.geometry), city: cityOf(district.parent!) };
}

function unimplemented(): never {
  throw new GrpcError(GrpcStatus.UNIMPLEMENTED, 'not in the fake geo service');
}

export interface FakeGeo {
  address: string;
  /** Calls received, by rpc name. */
  calls: Record<string, number>;
  /** While false, every call fails UNAVAILABLE (geo down). */
  up: boolean;
  stop(): Promise<void>;
}

export async function startFakeGeo(logger: Logger): Promise<FakeGeo> {
  const server: GrpcServer = createGrpcServer({ logger, serviceName: 'fake-geo', shutdownTimeoutMs: 500, internalTokens: 'unauthenticated' });
  const state: FakeGeo = { address: '', calls: {}, up: true, stop: () => server.shutdown() };
  const count = (name: string) => {
    state.calls[name] = (state.calls[name] ?? 0) + 1;
    if (!state.up) throw new GrpcError(GrpcStatus.UNAVAILABLE, 'fake geo is down');
  };
  const handlers: HandlersOf<typeof geoV1.GeoService> = {
    listCountries: async () => unimplemented(),
    listCities: async () => unimplemented(),
    findIntersecting: async () => unimplemented(),
    getCity: async (request) => (count('getCity'), cityOf(request.id)),
    getDistrict: async (request) => (count('getDistrict'), districtOf(request.id)),
    getNeighbourhood: async (request) => {
      count('getNeighbourhood');
      const found = FAKE_NEIGHBOURHOODS.find((n) => n.id === request.id);
      if (!found) throw notFound(`neighbourhood ${request.id}`);
      return { id: found.id, name: found.name, geometry: toProto(found.geometry), district: districtOf(found.parent!) };
    },
    resolvePoint: async (request) => {
      count('resolvePoint');
      const { lng, lat } = request.point ?? { lng: 0, lat: 0 };
      const city = FAKE_CITIES.find((c) => pointInMultiPolygon(lng, lat, c.geometry));
      const district = FAKE_DISTRICTS.find((d) => pointInMultiPolygon(lng, lat, d.geometry));
      return geoV1.ResolvePointResponse.create({
        countryCode: city ? 'TUR' : '',
        ...(city ? { city: { id: city.id, name: city.name } } : {}),
        ...(district ? { district: { id: district.id, name: district.name } } : {}),
      });
    },
    getPolygons: async (request) => {
      count('getPolygons');
      const lists: Partial<Record<geoV1.AreaLevel, FakeArea[]>> = {
        AREA_LEVEL_CITY: FAKE_CITIES,
        AREA_LEVEL_DISTRICT: FAKE_DISTRICTS,
        AREA_LEVEL_NEIGHBOURHOOD: FAKE_NEIGHBOURHOODS,
      };
      const areas: geoV1.AreaGeometry[] = [];
      for (const ref of request.areas) {
        const found = lists[ref.level]?.find((a) => a.id === ref.id);
        if (found) areas.push({ area: { level: ref.level, id: ref.id }, name: found.name, geometry: toProto(found.geometry) });
      }
      return { areas };
    },
  };
  server.add(geoV1.GeoService, handlers);
  const port = await server.listen('127.0.0.1:0');
  state.address = `127.0.0.1:${port}`;
  return state;
}
