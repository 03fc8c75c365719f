import { pointInMultiPolygon } from './point-in-polygon.js';
import type { MultiPolygon, Position } from './types.js';

/** Mean Earth radius (IUGG), the sphere every distance here is measured on. */
export const EARTH_RADIUS_M = 6_371_008.8;
/** Length of one degree of latitude (and of longitude at the equator) on that sphere. */
export const METRES_PER_DEGREE_LAT = (EARTH_RADIUS_M * Math.PI) / 180;

const RAD = Math.PI / 180;

export function metresPerDegreeLng(lat: number): number {
  return METRES_PER_DEGREE_LAT * Math.cos(lat * RAD);
}

/** Great-circle distance in metres. */
export function haversineM(a: Position, b: Position): number {
  const dLat = (b[1] - a[1]) * RAD;
  const dLng = (b[0] - a[0]) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * RAD) * Math.cos(b[1] * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Distance in metres from the origin (0, 0) to the segment (ax, ay)-(bx, by), all in a local plane
 * in metres. Shared by the generic helpers and the spatial index's hot loop.
 */
export function originToSegment(ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? -(ax * dx + ay * dy) / len2 : 0;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const x = ax + t * dx;
  const y = ay + t * dy;
  return Math.sqrt(x * x + y * y);
}

/**
 * Projects a position into metres around `origin`, scaling longitude by the cosine of the MEAN of the
 * two latitudes. This keeps the distance to each vertex within about 0.1 % of the great-circle value
 * up to a few hundred kilometres (a single scale at the origin drifts by 2-3 % at 200 km), which is
 * what circle queries with the contract's 200 km radius need.
 */
function project(origin: Position, p: Position): [number, number] {
  return [(p[0] - origin[0]) * metresPerDegreeLng((p[1] + origin[1]) / 2), (p[1] - origin[1]) * METRES_PER_DEGREE_LAT];
}

/** Distance in metres from a point to the segment a-b (local plane; good to well under 1 % below 200 km). */
export function pointToSegmentM(p: Position, a: Position, b: Position): number {
  const [ax, ay] = project(p, a);
  const [bx, by] = project(p, b);
  return originToSegment(ax, ay, bx, by);
}

/** Distance in metres from a point to the nearest edge of any ring (holes included). */
export function pointToBoundaryM(p: Position, geometry: MultiPolygon): number {
  let best = Infinity;
  for (const polygon of geometry) {
    for (const ring of polygon) {
      let prev = ring[0] ? project(p, ring[0]) : undefined;
      for (let i = 1; i < ring.length && prev; i++) {
        const next = project(p, ring[i]!);
        const d = originToSegment(prev[0], prev[1], next[0], next[1]);
        if (d < best) best = d;
        prev = next;
      }
    }
  }
  return best;
}

/** 0 inside the geometry (holes excluded), otherwise the distance in metres to its boundary. */
export function pointToPolygonM(p: Position, geometry: MultiPolygon): number {
  return pointInMultiPolygon(p, geometry) ? 0 : pointToBoundaryM(p, geometry);
}
