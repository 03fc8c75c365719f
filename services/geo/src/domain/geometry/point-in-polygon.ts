import type { MultiPolygon, PolygonRings, Position, Ring } from './types.js';

/**
 * Even-odd crossing test of a horizontal ray towards +lng. The half-open rule `(yi > y) !== (yj > y)`
 * counts a vertex exactly on the ray once, so rings sharing an edge never both claim (or both miss)
 * a point in the middle of it; points exactly on an edge fall on one deterministic side.
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

/** Inside the exterior and outside every hole: even-odd over all rings, so nested holes work too. */
export function pointInPolygon(p: Position, polygon: PolygonRings): boolean {
  let inside = false;
  for (const ring of polygon) if (pointInRing(p[0], p[1], ring)) inside = !inside;
  return inside;
}

export function pointInMultiPolygon(p: Position, geometry: MultiPolygon): boolean {
  for (const polygon of geometry) if (pointInPolygon(p, polygon)) return true;
  return false;
}
