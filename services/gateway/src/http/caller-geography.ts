import type { Request } from 'express';
import { boundariesFromMessages, cityLocation, withinAny, type GeoBoundary } from '@stormhook/access';
import type { geoV1, queryV1 } from '@stormhook/proto';
import { accessOf, principalOf } from './auth-state.js';

/**
 * Where the caller may see data, as the access check decided it for this request: undefined for
 * ADMINs, who see everywhere (operators must be able to look at any data); everyone else the
 * countries and regions of their subscription, none when it names none.
 */
export function allowedBoundaries(req: Request): readonly GeoBoundary[] | undefined {
  if (principalOf(req).role === 'ADMIN') return undefined;
  return boundariesFromMessages(accessOf(req)?.geographicBoundaries ?? []);
}

/** The caller's geography as the query service takes it (an empty region is the whole country). */
export function geographyOf(req: Request): queryV1.Geography {
  const boundaries = allowedBoundaries(req);
  if (boundaries === undefined) return { unrestricted: true, areas: [] };
  return { unrestricted: false, areas: boundaries.map((b) => ({ countryCode: b.country, region: b.region ?? '' })) };
}

/**
 * Whether the caller's plan covers a city, judged as the access check judges an area named by id
 * (its country, and the city as the region), so a list never shows what a lookup by id would refuse.
 */
export function coversCity(req: Request): (city: geoV1.City) => boolean {
  const boundaries = allowedBoundaries(req);
  if (boundaries === undefined) return () => true;
  return (city) => {
    const location = cityLocation(city);
    return location !== undefined && withinAny(location, boundaries);
  };
}
