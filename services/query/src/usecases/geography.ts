import { describeBoundaries } from '@stormhook/access';
import type { queryV1 } from '@stormhook/proto';
import type { AreaIndex } from '@stormhook/access';
import { AREA_WORDS } from '../read-models/area-bits.js';
import type { EventIndex } from '../read-models/event-index.js';
import { areasUnavailable } from './errors.js';

/** Where a caller may see data: everywhere, or the events tagged with one of `keys`. */
export type AreaFilter = { all: true } | { all: false; keys: ReadonlySet<string>; allowed: readonly queryV1.AllowedArea[] };

/**
 * The caller's geography as area keys. A restricted caller needs the areas loaded from the geo
 * service; until then the answer is a 503 rather than a guess.
 */
export function resolveGeography(geography: queryV1.Geography | null | undefined, areas: AreaIndex | undefined): AreaFilter {
  if (geography?.unrestricted) return { all: true };
  const allowed = geography?.areas ?? [];
  if (allowed.length === 0) return { all: false, keys: new Set(), allowed };
  if (!areas) throw areasUnavailable();
  return { all: false, keys: areas.resolve(allowed).keys, allowed };
}

/** The area mask of a filter for one index; undefined means no restriction. */
export function maskFor(filter: AreaFilter, index: EventIndex): Uint32Array | undefined {
  if (filter.all) return undefined;
  return index.areaBits.maskOf(filter.keys, new Uint32Array(AREA_WORDS), true);
}

export function visible(filter: AreaFilter, areas: readonly string[]): boolean {
  return filter.all || areas.some((a) => filter.keys.has(a));
}

/** The `[Country, Region]` part of the 403 message: what the subscription allows (a blank region is the whole country). */
export function describeAllowed(allowed: readonly queryV1.AllowedArea[]): { country: string; region: string } {
  return describeBoundaries(allowed.map((a) => ({ country: a.countryCode, ...(a.region.trim() === '' ? {} : { region: a.region }) })));
}
