import { resolvedLocation, type GeoPoint, type ResolvedLocation } from '@stormhook/access';
import { ApiError, ErrorMessages } from '@stormhook/errors';
import type { geoV1 } from '@stormhook/proto';

export interface ResolvePointPort {
  resolvePoint(request: geoV1.ResolvePointRequest): Promise<geoV1.ResolvePointResponse>;
}

export interface GeoResolutionCacheOptions {
  /** Points kept at most; the least recently used go first. */
  maxEntries?: number;
  /** How long a resolution is kept: boundaries change only when an operator imports new data. */
  ttlMs?: number;
  now?: () => number;
}

interface Entry {
  location: ResolvedLocation | undefined;
  until: number;
}

/**
 * Country and region of the points that requests query, for the geography check. The geo service
 * answers from memory, but a call still costs a round trip; customers query the same few places
 * again and again, so a bounded LRU makes the repeat free. Points are keyed exactly as sent (the
 * same coordinates, the same answer). When geo cannot answer, access cannot be decided: 503.
 */
export class GeoResolutionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<ResolvedLocation | undefined>>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly geo: ResolvePointPort,
    options: GeoResolutionCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.ttlMs = options.ttlMs ?? 600_000;
    this.now = options.now ?? Date.now;
  }

  async resolve(point: GeoPoint): Promise<ResolvedLocation | undefined> {
    const key = `${point.lat},${point.lng}`;
    const hit = this.entries.get(key);
    if (hit && hit.until > this.now()) {
      // Re-inserted so that Map order is least recently used first.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.location;
    }
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const promise = this.ask(point).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    const location = await promise;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { location, until: this.now() + this.ttlMs });
    return location;
  }

  get size(): number {
    return this.entries.size;
  }

  private async ask(point: GeoPoint): Promise<ResolvedLocation | undefined> {
    let answer: geoV1.ResolvePointResponse;
    try {
      answer = await this.geo.resolvePoint({ point: { lat: point.lat, lng: point.lng } });
    } catch (error) {
      throw new ApiError(503, ErrorMessages.serviceUnavailable, undefined, { cause: error });
    }
    return resolvedLocation(answer);
  }
}
