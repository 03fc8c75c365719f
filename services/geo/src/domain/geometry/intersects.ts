import { bboxIntersects, bboxOf, bboxOfRings, expandBBox } from './bbox.js';
import { pointToBoundaryM } from './distance.js';
import { pointInMultiPolygon, pointInPolygon } from './point-in-polygon.js';
import type { BBox, Circle, MultiPolygon, PolygonRings, Position } from './types.js';

function orientation(a: Position, b: Position, c: Position): number {
  const v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}

function onSegment(a: Position, b: Position, p: Position): boolean {
  return (
    Math.min(a[0], b[0]) <= p[0] && p[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= p[1] && p[1] <= Math.max(a[1], b[1])
  );
}

/** True when the closed segments a-b and c-d share at least one point (touching counts). */
export function segmentsIntersect(a: Position, b: Position, c: Position, d: Position): boolean {
  const o1 = orientation(a, b, c);
  const o2 = orientation(a, b, d);
  const o3 = orientation(c, d, a);
  const o4 = orientation(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  return (
    (o1 === 0 && onSegment(a, b, c)) ||
    (o2 === 0 && onSegment(a, b, d)) ||
    (o3 === 0 && onSegment(c, d, a)) ||
    (o4 === 0 && onSegment(c, d, b))
  );
}

function edgesCross(query: PolygonRings, area: MultiPolygon, areaBox: BBox): boolean {
  for (const qRing of query) {
    for (let i = 1; i < qRing.length; i++) {
      const a = qRing[i - 1]!;
      const b = qRing[i]!;
      const edgeBox: BBox = [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1])];
      if (!bboxIntersects(edgeBox, areaBox)) continue;
      for (const polygon of area) {
        for (const ring of polygon) {
          for (let j = 1; j < ring.length; j++) {
            const c = ring[j - 1]!;
            const d = ring[j]!;
            // Cheap rejection first: most edge pairs are far apart.
            if (Math.max(c[0], d[0]) < edgeBox[0] || Math.min(c[0], d[0]) > edgeBox[2]) continue;
            if (Math.max(c[1], d[1]) < edgeBox[1] || Math.min(c[1], d[1]) > edgeBox[3]) continue;
            if (segmentsIntersect(a, b, c, d)) return true;
          }
        }
      }
    }
  }
  return false;
}

/**
 * True when a query polygon (with holes) and an area share any point, borders included. Either the
 * boundaries cross, or one lies wholly inside the other; in the second case any vertex decides,
 * and the even-odd test makes a shape sitting inside the other's hole correctly count as apart.
 */
export function polygonIntersectsArea(query: PolygonRings, area: MultiPolygon, areaBox: BBox = bboxOf(area)): boolean {
  if (!bboxIntersects(bboxOfRings(query), areaBox)) return false;
  if (edgesCross(query, area, areaBox)) return true;
  for (const polygon of area) {
    const vertex = polygon[0]?.[0];
    if (vertex && pointInPolygon(vertex, query)) return true;
  }
  const queryVertex = query[0]?.[0];
  return queryVertex !== undefined && pointInMultiPolygon(queryVertex, area);
}

/** True when the disc (boundary included) and the area share any point. */
export function circleIntersectsArea(circle: Circle, area: MultiPolygon, areaBox: BBox = bboxOf(area)): boolean {
  const [lng, lat] = circle.center;
  const discBox = expandBBox([lng, lat, lng, lat], circle.radiusM);
  if (!bboxIntersects(discBox, areaBox)) return false;
  return pointInMultiPolygon(circle.center, area) || pointToBoundaryM(circle.center, area) <= circle.radiusM;
}
