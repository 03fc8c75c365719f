import { cityLocation, resolvedLocation, type GeoPoint, type QueriedArea, type ResolvedLocation } from '@stormhook/access';
import { ApiError, ErrorMessages } from '@stormhook/errors';
import { GrpcError, GrpcStatus } from '@stormhook/grpc';
import type { commonV1, geoV1 } from '@stormhook/proto';

export interface ResolvePointPort {
  resolvePoint(request: geoV1.ResolvePointRequest): Promise<geoV1.ResolvePointResponse>;
}

/** The geo lookups of areas named by id (their city gives the region). */
export interface AreaLookupPort {
  getCity(request: geoV1.GetAreaRequest): Promise<geoV1.City>;
  getDistrict(request: geoV1.GetAreaRequest): Promise<geoV1.District>;
  getNeighbourhood(request: geoV1.GetAreaRequest): Promise<geoV1.Neighbourhood>;
}

export type AreaLevel = 'city' | 'district' | 'neighbourhood';

export interface AreaRef {
  level: AreaLevel;
  id: number;
}

export interface GeoResolutionCacheOptions {
  /** Points and areas kept at most; the least recently used go first. */
  maxEntries?: number;
  /** How long a resolution is kept: boundaries change only when an operator imports new data. */
  ttlMs?: number;
  now?: () => number;
}

interface Entry {
  value: unknown;
  until: number;
}

/** Areas are fetched only for their city and one vertex: a coarse outline is plenty and light. */
const AREA_SIMPLIFY_M = 2_000;

/**
 * Country and region of the points and areas that requests query, for the geography check. The geo
 * service answers from memory, but a call still costs a round trip; customers query the same few
 * places again and again, so a bounded LRU makes the repeat free. Points are keyed exactly as sent
 * (the same coordinates, the same answer). When geo cannot answer, access cannot be decided: 503.
 */
export class GeoResolutionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly geo: ResolvePointPort & AreaLookupPort,
    options: GeoResolutionCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.ttlMs = options.ttlMs ?? 600_000;
    this.now = options.now ?? Date.now;
  }

  resolve(point: GeoPoint): Promise<ResolvedLocation | undefined> {
    return this.cached(`${point.lat},${point.lng}`, () => this.askPoint(point));
  }

  /**
   * Where an area named by id lies, with a point of its outline for the 403 message; undefined for
   * an id geo does not know (the operation's own validation then answers 400 or 404 naming it).
   */
  resolveArea(ref: AreaRef): Promise<QueriedArea | undefined> {
    return this.cached(`${ref.level}:${ref.id}`, () => this.askArea(ref));
  }

  get size(): number {
    return this.entries.size;
  }

  private async cached<T>(key: string, ask: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.until > this.now()) {
      // Re-inserted so that Map order is least recently used first.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value as T;
    }
    const pending = this.inFlight.get(key);
    if (pending) return pending as Promise<T>;
    const promise = ask().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    const value = await promise;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, until: this.now() + this.ttlMs });
    return value;
  }

  private async askPoint(point: GeoPoint): Promise<ResolvedLocation | undefined> {
    let answer: geoV1.ResolvePointResponse;
    try {
      answer = await this.geo.resolvePoint({ point: { lat: point.lat, lng: point.lng } });
    } catch (error) {
      throw new ApiError(503, ErrorMessages.serviceUnavailable, undefined, { cause: error });
    }
    return resolvedLocation(answer);
  }

  private async askArea(ref: AreaRef): Promise<QueriedArea | undefined> {
    const request = { id: ref.id, simplifyToleranceM: AREA_SIMPLIFY_M };
    let city: geoV1.City | null | undefined;
    let geometry: commonV1.MultiPolygon | null | undefined;
    try {
      if (ref.level === 'city') {
        city = await this.geo.getCity(request);
        geometry = city.geometry;
      } else if (ref.level === 'district') {
        const district = await this.geo.getDistrict(request);
        ({ city, geometry } = district);
      } else {
        const neighbourhood = await this.geo.getNeighbourhood(request);
        city = neighbourhood.district?.city;
        geometry = neighbourhood.geometry;
      }
    } catch (error) {
      if (error instanceof GrpcError && (error.code === GrpcStatus.NOT_FOUND || error.code === GrpcStatus.INVALID_ARGUMENT)) return undefined;
      throw new ApiError(503, ErrorMessages.serviceUnavailable, undefined, { cause: error });
    }
    const vertex = geometry?.polygons[0]?.exterior?.points[0];
    const area = city ? cityLocation(city) : undefined;
    if (!area) return undefined;
    return { area, point: vertex ? { lat: vertex.lat, lng: vertex.lng } : { lat: 0, lng: 0 } };
  }
}
