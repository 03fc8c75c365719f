import { API_LIMITS, COVERED_AREA, inArea } from '@stormhook/limits';

/**
 * The part of the world matched: the covered area of @stormhook/limits (Turkey and Northern Cyprus
 * with a margin for coastal waters). The in-memory grid spans it, and point alarms must lie in it.
 */
export const COVERAGE = COVERED_AREA;

export function inCoverage(lng: number, lat: number): boolean {
  return inArea(COVERED_AREA, lng, lat);
}

/** Point alarm radius bounds, in metres (the public contract's, see @stormhook/limits). */
export const MIN_RADIUS_M = API_LIMITS.pointRadiusM.min;
export const MAX_RADIUS_M = API_LIMITS.pointRadiusM.max;
