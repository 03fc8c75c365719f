import type { MultiPolygon, PolygonRings, Ring } from './types.js';

/** Smallest valid ring: a triangle plus the closing point (RFC 7946 section 3.1.6). */
export const MIN_RING_POINTS = 4;

export function isClosed(ring: Ring): boolean {
  const first = ring[0];
  const last = ring[ring.length - 1];
  return first !== undefined && last !== undefined && first[0] === last[0] && first[1] === last[1];
}

/** Twice the signed area in square degrees (shoelace); positive when counter-clockwise. */
export function signedArea2(ring: Ring): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[j]!;
    const b = ring[i]!;
    sum += (a[0] - b[0]) * (a[1] + b[1]);
  }
  return sum;
}

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
  if (signedArea2(ring) === 0) return 'has zero area';
  return undefined;
}

/** The first problem of any ring of any part, with its location, or undefined. */
export function multiPolygonProblem(geometry: MultiPolygon): string | undefined {
  if (geometry.length === 0) return 'has no polygons';
  for (let p = 0; p < geometry.length; p++) {
    const polygon = geometry[p]!;
    if (polygon.length === 0) return `polygon ${p} has no rings`;
    for (let r = 0; r < polygon.length; r++) {
      const problem = ringProblem(polygon[r]!);
      if (problem) return `polygon ${p} ring ${r} ${problem}`;
    }
  }
  return undefined;
}

/** The part with the largest exterior, for callers that can show only one polygon (ring form). */
export function largestPolygon(geometry: MultiPolygon): PolygonRings | undefined {
  let best: PolygonRings | undefined;
  let bestArea = -1;
  for (const polygon of geometry) {
    const exterior = polygon[0];
    if (!exterior) continue;
    const area = Math.abs(signedArea2(exterior));
    if (area > bestArea) {
      best = polygon;
      bestArea = area;
    }
  }
  return best;
}
