import { setTimeout as sleep } from 'node:timers/promises';
import { bboxOfParts, flattenMultiPolygon, type MultiPolygon, type Ring } from '@stormhook/geometry';
import type { GrpcClient } from '@stormhook/grpc';
import type { Logger } from '@stormhook/logger';
import type { geoV1 } from '@stormhook/proto';
import { AreaIndex, type SubscriptionArea } from './subscription-areas.js';

export type GeoAreasClient = Pick<GrpcClient<typeof geoV1.GeoService>, 'listCountries' | 'listCities'>;

/** Proto points as positions. */
export function ringOf(points: ReadonlyArray<{ lng: number; lat: number }>): Ring {
  return points.map((p) => [p.lng, p.lat] as const);
}

export function toRings(
  geometry:
    | { polygons: Array<{ exterior?: { points: Array<{ lng: number; lat: number }> } | null; holes: Array<{ points: Array<{ lng: number; lat: number }> }> }> }
    | null
    | undefined,
): MultiPolygon {
  return (geometry?.polygons ?? []).map((p) => ({ exterior: ringOf(p.exterior?.points ?? []), holes: p.holes.map((h) => ringOf(h.points)) }));
}

/**
 * Reads the provinces of every supported country from the geo service (simplified by
 * `toleranceM`: tagging events does not need survey precision, and fewer vertices make every
 * consumed event cheaper to tag).
 */
export async function fetchAreas(geo: GeoAreasClient, toleranceM: number, signal?: AbortSignal): Promise<AreaIndex> {
  const overrides = signal ? { signal } : {};
  const { countries } = await geo.listCountries({}, overrides);
  const areas: SubscriptionArea[] = [];
  for (const country of countries) {
    const { cities } = await geo.listCities({ countryCode: country.code, simplifyToleranceM: toleranceM }, overrides);
    for (const city of cities) {
      const parts = flattenMultiPolygon(toRings(city.geometry));
      if (parts.length === 0) continue;
      areas.push({ key: `${country.code}:${city.id}`, countryCode: country.code, name: city.name, parts, bbox: bboxOfParts(parts) });
    }
  }
  return new AreaIndex(areas);
}

/**
 * Retries {@link fetchAreas} until the geo service answers (it may start after us) or `signal`
 * aborts; undefined when aborted.
 */
export async function loadAreasWithRetry(geo: GeoAreasClient, toleranceM: number, logger: Logger, signal: AbortSignal): Promise<AreaIndex | undefined> {
  let delay = 500;
  for (let attempt = 1; !signal.aborted; attempt++) {
    try {
      const index = await fetchAreas(geo, toleranceM, signal);
      if (index.areas.length > 0) {
        logger.info({ areas: index.areas.length }, 'subscription areas loaded from the geo service');
        return index;
      }
      logger.warn('the geo service has no areas yet; retrying');
    } catch (error) {
      if (signal.aborted) return undefined;
      if (attempt === 1 || attempt % 10 === 0) logger.warn({ err: error, attempt }, 'cannot load subscription areas from the geo service yet; retrying');
    }
    try {
      await sleep(delay, undefined, { signal });
    } catch {
      return undefined;
    }
    delay = Math.min(10_000, delay * 2);
  }
  return undefined;
}
