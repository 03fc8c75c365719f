import type { ResolvedLocation } from '@stormhook/access';

/** Resolves a point to its country and region (the geo service). Undefined: outside every known area. */
export interface GeoResolver {
  resolve(point: { lat: number; lng: number }): Promise<ResolvedLocation | undefined>;
}
