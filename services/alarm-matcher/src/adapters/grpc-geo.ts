import type { MultiPolygon, Polygon, Ring } from '@stormhook/geometry';
import { GrpcError, GrpcStatus, type GrpcClient } from '@stormhook/grpc';
import type { commonV1, geoV1 } from '@stormhook/proto';
import type { LatLng } from '../domain/registration.js';
import type { CallBudget } from '../ports/call-budget.js';
import { DependencyUnavailableError } from '../ports/dependency.js';
import { withinBudget } from './call-deadline.js';
import { areaRefKey, type AreaRef, type DistrictInfo, type GeoPort, type NamedArea, type NeighbourhoodInfo, type PointResolution } from '../ports/geo-port.js';

export type GeoClient = Pick<GrpcClient<typeof geoV1.GeoService>, 'getCity' | 'getDistrict' | 'getNeighbourhood' | 'resolvePoint' | 'getPolygons'>;

/** Lookups only need ids and names; a coarse simplification keeps the boundaries geo sends along small. */
const LOOKUP_SIMPLIFY_M = 50_000;
/** geo answers at most this many areas per GetPolygons call. */
const POLYGON_BATCH = 500;

const LEVELS: Record<AreaRef['level'], geoV1.AreaLevel> = {
  CITY: 'AREA_LEVEL_CITY',
  DISTRICT: 'AREA_LEVEL_DISTRICT',
  NEIGHBOURHOOD: 'AREA_LEVEL_NEIGHBOURHOOD',
};

function ring(linear: commonV1.LinearRing | null | undefined): Ring {
  return (linear?.points ?? []).map((p) => [p.lng, p.lat] as const);
}

/** A proto multipolygon as rings; parts without an exterior are dropped. */
export function multiFromProto(multi: commonV1.MultiPolygon | null | undefined): MultiPolygon {
  const parts: Polygon[] = [];
  for (const polygon of multi?.polygons ?? []) {
    const exterior = ring(polygon.exterior);
    if (exterior.length < 4) continue;
    parts.push({ exterior, holes: polygon.holes.map((hole) => ring(hole)).filter((hole) => hole.length >= 4) });
  }
  return parts;
}

/**
 * The geo service over gRPC (stormhook.geo.v1.GeoService). NOT_FOUND is "no such area"; any other
 * failure means geo cannot answer now, which callers turn into 503 or a retry.
 */
export class GrpcGeoPort implements GeoPort {
  constructor(
    private readonly client: GeoClient,
    private readonly simplifyToleranceM: number,
  ) {}

  private async call<T>(what: string, run: () => Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof GrpcError && error.code === GrpcStatus.NOT_FOUND) return undefined;
      throw new DependencyUnavailableError('geo', `geo service did not answer ${what}: ${(error as Error).message}`, { cause: error });
    }
  }

  async city(id: number, budget?: CallBudget): Promise<NamedArea | undefined> {
    const city = await this.call('GetCity', () => this.client.getCity({ id, simplifyToleranceM: LOOKUP_SIMPLIFY_M }, withinBudget(budget)));
    return city ? { id: city.id, name: city.name, ...(city.countryCode ? { countryCode: city.countryCode } : {}) } : undefined;
  }

  async district(id: number, budget?: CallBudget): Promise<DistrictInfo | undefined> {
    const district = await this.call('GetDistrict', () => this.client.getDistrict({ id, simplifyToleranceM: LOOKUP_SIMPLIFY_M }, withinBudget(budget)));
    if (!district?.city) return undefined;
    return { id: district.id, name: district.name, city: { id: district.city.id, name: district.city.name } };
  }

  async neighbourhood(id: number, budget?: CallBudget): Promise<NeighbourhoodInfo | undefined> {
    const found = await this.call('GetNeighbourhood', () => this.client.getNeighbourhood({ id, simplifyToleranceM: LOOKUP_SIMPLIFY_M }, withinBudget(budget)));
    const district = found?.district;
    if (!found || !district?.city) return undefined;
    return {
      id: found.id,
      name: found.name,
      district: { id: district.id, name: district.name, city: { id: district.city.id, name: district.city.name } },
    };
  }

  async resolvePoint(point: LatLng, budget?: CallBudget): Promise<PointResolution> {
    const answer = await this.call('ResolvePoint', () => this.client.resolvePoint({ point: { lat: point.lat, lng: point.lng } }, withinBudget(budget)));
    if (!answer) return { countryCode: '' };
    return {
      countryCode: answer.countryCode,
      ...(answer.city ? { city: { id: answer.city.id, name: answer.city.name } } : {}),
      ...(answer.district ? { district: { id: answer.district.id, name: answer.district.name } } : {}),
    };
  }

  async polygons(refs: readonly AreaRef[]): Promise<Map<string, MultiPolygon>> {
    const found = new Map<string, MultiPolygon>();
    for (let i = 0; i < refs.length; i += POLYGON_BATCH) {
      const batch = refs.slice(i, i + POLYGON_BATCH);
      const answer = await this.call('GetPolygons', () =>
        this.client.getPolygons(
          { areas: batch.map((ref) => ({ level: LEVELS[ref.level], id: ref.id })), simplifyToleranceM: this.simplifyToleranceM },
          { deadlineMs: 60_000 },
        ),
      );
      for (const area of answer?.areas ?? []) {
        const level = (Object.keys(LEVELS) as Array<AreaRef['level']>).find((key) => LEVELS[key] === area.area?.level);
        if (!level || !area.area) continue;
        const multi = multiFromProto(area.geometry);
        if (multi.length > 0) found.set(areaRefKey({ level, id: area.area.id }), multi);
      }
    }
    return found;
  }
}
