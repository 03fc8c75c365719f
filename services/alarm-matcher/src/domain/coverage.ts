/**
 * The part of the world matched: Turkey and Northern Cyprus with a margin for coastal waters. The
 * in-memory grid spans it, and point alarms must lie in it.
 */
export const COVERAGE = { minLng: 24, minLat: 33, maxLng: 46, maxLat: 44 } as const;

export function inCoverage(lng: number, lat: number): boolean {
  return lng >= COVERAGE.minLng && lng <= COVERAGE.maxLng && lat >= COVERAGE.minLat && lat <= COVERAGE.maxLat;
}

/** Point alarm radius bounds, in metres: below 100 m is finer than lightning location accuracy; 200 km as the geometry crop. */
export const MIN_RADIUS_M = 100;
export const MAX_RADIUS_M = 200_000;
