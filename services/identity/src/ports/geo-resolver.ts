import type { ResolvedLocation } from '../domain/geography.js';

/** Resolves a point to its country and region (the geo service). Undefined: outside every known area. */
export interface GeoResolver {
  resolve(point: { lat: number; lng: number }): Promise<ResolvedLocation | undefined>;
}
