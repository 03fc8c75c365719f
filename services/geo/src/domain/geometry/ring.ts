import { isClosed, signedArea, type MultiPolygon, type Polygon, type Ring } from '@stormhook/geometry';

/** Smallest valid ring: a triangle plus the closing point (RFC 7946 section 3.1.6). */
export const MIN_RING_POINTS = 4;

/**
 * Why a ring is unusable, or undefined when it is fine. Checks what every consumer relies on:
 * enough points, finite numbers, closure and a non-zero area (a ring folded onto a line has no
 * inside, so point-in-polygon would silently never match it). Self-intersection is NOT checked:
 * it costs O(n log n) per ring with a sweep, and the even-odd rule used everywhere here still gives
 * a defined answer for a bow-tie.
 */
export function ringProblem(ring: Ring): string | undefined {
  if (ring.length < MIN_RING_POINTS) return `has ${ring.length} positions, needs at least ${MIN_RING_POINTS}`;
  for (let i = 0; i < ring.length; i++) {
    const p = ring[i]!;
    if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) return `position ${i} is not a pair of finite numbers`;
  }
  if (!isClosed(ring)) return 'is not closed (first position differs from last)';
  if (signedArea(ring) === 0) return 'has zero area';
  return undefined;
}

/** The first problem of any ring of any part, with its location, or undefined. */
export function multiPolygonProblem(geometry: MultiPolygon): string | undefined {
  if (geometry.length === 0) return 'has no polygons';
  for (let p = 0; p < geometry.length; p++) {
    const rings = [geometry[p]!.exterior, ...geometry[p]!.holes];
    for (let r = 0; r < rings.length; r++) {
      const problem = ringProblem(rings[r]!);
      if (problem) return `polygon ${p} ring ${r} ${problem}`;
    }
  }
  return undefined;
}

/** The part with the largest exterior, for callers that can show only one polygon (ring form). */
export function largestPolygon(geometry: MultiPolygon): Polygon | undefined {
  let best: Polygon | undefined;
  let bestArea = -1;
  for (const polygon of geometry) {
    const area = Math.abs(signedArea(polygon.exterior));
    if (area > bestArea) {
      best = polygon;
      bestArea = area;
    }
  }
  return best;
}
