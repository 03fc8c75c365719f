import { circleBounds, LocalProjection } from './geodesy.js';
import type { BBox, GeoCircle, MultiPolygonRings } from './types.js';

export type CircleRelation = 'disjoint' | 'inside' | 'maybe';

/**
 * A cheap first answer from boxes alone: 'disjoint' when the box misses the circle's box,
 * 'inside' when all four corners of the box lie within the circle (the box, and so the event, is
 * wholly inside: a geodesic disc of at most 200 km is convex enough for its box corners to decide),
 * 'maybe' otherwise, when only the geometry itself can tell.
 */
export function boxRelation(box: BBox, circle: GeoCircle, projection = new LocalProjection(circle.center.lng, circle.center.lat)): CircleRelation {
  const c = circleBounds(circle.center.lng, circle.center.lat, circle.radiusM);
  if (box.maxLng < c.minLng || box.minLng > c.maxLng || box.maxLat < c.minLat || box.minLat > c.maxLat) return 'disjoint';
  const r2 = circle.radiusM * circle.radiusM;
  const corners: Array<[number, number]> = [
    [box.minLng, box.minLat],
    [box.maxLng, box.minLat],
    [box.maxLng, box.maxLat],
    [box.minLng, box.maxLat],
  ];
  const allInside = corners.every(([lng, lat]) => {
    const [x, y] = projection.forward(lng, lat);
    return x * x + y * y <= r2;
  });
  return allInside ? 'inside' : 'maybe';
}

function segmentDistance2(ax: number, ay: number, bx: number, by: number): number {
  // Squared distance from the origin (the circle's centre) to segment a-b.
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2));
  const x = ax + t * dx;
  const y = ay + t * dy;
  return x * x + y * y;
}

/**
 * Whether the geometry shares any point with the geodesic circle: a vertex or an edge within the
 * radius, or the centre inside the area. Computed in the circle's azimuthal equidistant plane.
 */
export function intersectsCircle(polygons: MultiPolygonRings, circle: GeoCircle): boolean {
  const projection = new LocalProjection(circle.center.lng, circle.center.lat);
  const r2 = circle.radiusM * circle.radiusM;
  for (const polygon of polygons) {
    let centreInside = false;
    for (const ring of [polygon.exterior, ...polygon.holes]) {
      const pts = ring.map((p) => projection.forward(p.lng, p.lat));
      let inRing = false;
      for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
        const [ax, ay] = pts[j]!;
        const [bx, by] = pts[i]!;
        if (segmentDistance2(ax, ay, bx, by) <= r2) return true;
        if (by > 0 !== ay > 0 && 0 < ((ax - bx) * (0 - by)) / (ay - by) + bx) inRing = !inRing;
      }
      if (inRing) centreInside = !centreInside;
    }
    if (centreInside) return true;
  }
  return false;
}
