import { bboxesOverlap, bboxOfMultiPolygon } from './bbox.js';
import { pointInMultiPolygon } from './point-in-polygon.js';
import type { MultiPolygon, Ring } from './types.js';

function orientation(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  const value = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  return value > 0 ? 1 : value < 0 ? -1 : 0;
}

/** Whether c lies within the box of segment a-b (called only for collinear points). */
function onSegment(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): boolean {
  return Math.min(ax, bx) <= cx && cx <= Math.max(ax, bx) && Math.min(ay, by) <= cy && cy <= Math.max(ay, by);
}

/**
 * Whether the closed segments p1-p2 and q1-q2 share at least one point: crossing, touching at an end
 * or overlapping collinear all count, because an event that shares a border point touches the area.
 */
export function segmentsIntersect(p1x: number, p1y: number, p2x: number, p2y: number, q1x: number, q1y: number, q2x: number, q2y: number): boolean {
  const o1 = orientation(p1x, p1y, p2x, p2y, q1x, q1y);
  const o2 = orientation(p1x, p1y, p2x, p2y, q2x, q2y);
  const o3 = orientation(q1x, q1y, q2x, q2y, p1x, p1y);
  const o4 = orientation(q1x, q1y, q2x, q2y, p2x, p2y);
  if (o1 !== o2 && o3 !== o4) return true;
  return (
    (o1 === 0 && onSegment(p1x, p1y, p2x, p2y, q1x, q1y)) ||
    (o2 === 0 && onSegment(p1x, p1y, p2x, p2y, q2x, q2y)) ||
    (o3 === 0 && onSegment(q1x, q1y, q2x, q2y, p1x, p1y)) ||
    (o4 === 0 && onSegment(q1x, q1y, q2x, q2y, p2x, p2y))
  );
}

/** Every ring of the multipolygon, exteriors and holes. */
export function ringsOf(multi: MultiPolygon): Ring[] {
  return multi.flatMap((part) => [part.exterior, ...part.holes]);
}

/**
 * Whether two multipolygons share a point ("touches": borders included). Either two edges meet, or
 * one boundary lies wholly inside the other shape, and then each of its vertices does; the even-odd
 * test makes a shape inside the other's hole count as apart.
 */
export function multiPolygonsTouch(a: MultiPolygon, b: MultiPolygon): boolean {
  if (!bboxesOverlap(bboxOfMultiPolygon(a), bboxOfMultiPolygon(b))) return false;
  const ringsA = ringsOf(a);
  const ringsB = ringsOf(b);
  for (const ra of ringsA) {
    for (let i = 1; i < ra.length; i++) {
      const [ax1, ay1] = ra[i - 1]!;
      const [ax2, ay2] = ra[i]!;
      for (const rb of ringsB) {
        for (let j = 1; j < rb.length; j++) {
          const [bx1, by1] = rb[j - 1]!;
          const [bx2, by2] = rb[j]!;
          if (Math.max(ax1, ax2) < Math.min(bx1, bx2) || Math.min(ax1, ax2) > Math.max(bx1, bx2)) continue;
          if (Math.max(ay1, ay2) < Math.min(by1, by2) || Math.min(ay1, ay2) > Math.max(by1, by2)) continue;
          if (segmentsIntersect(ax1, ay1, ax2, ay2, bx1, by1, bx2, by2)) return true;
        }
      }
    }
  }
  for (const part of a) {
    const v = part.exterior[0];
    if (v && pointInMultiPolygon(v[0], v[1], b)) return true;
  }
  for (const part of b) {
    const v = part.exterior[0];
    if (v && pointInMultiPolygon(v[0], v[1], a)) return true;
  }
  return false;
}
