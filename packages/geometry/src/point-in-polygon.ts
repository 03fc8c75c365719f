import type { MultiPolygon, Polygon, Ring } from './types.js';

/**
 * Even-odd crossing test of a horizontal ray towards +lng, edges straight in lng/lat (RFC 7946).
 * The half-open rule `(yi > y) !== (yj > y)` counts a vertex exactly on the ray once, so rings
 * sharing an edge never both claim (or both miss) a point in the middle of it; points exactly on an
 * edge fall on one deterministic side. Either ring orientation works.
 */
export function pointInRing(lng: number, lat: number, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Inside the exterior and in no hole. */
export function pointInPolygon(lng: number, lat: number, polygon: Polygon): boolean {
  if (!pointInRing(lng, lat, polygon.exterior)) return false;
  for (const hole of polygon.holes) if (pointInRing(lng, lat, hole)) return false;
  return true;
}

export function pointInMultiPolygon(lng: number, lat: number, multi: MultiPolygon): boolean {
  for (const part of multi) if (pointInPolygon(lng, lat, part)) return true;
  return false;
}
