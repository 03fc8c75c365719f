import { EMPTY_BBOX, type BBox, type MultiPolygon, type Position, type Ring } from './types.js';

/**
 * Geometry on longitude/latitude treated as a plane, with distances in a local equirectangular
 * projection: within the 200 km that alarms reach, its error stays well under 1 %, and it is an
 * order of magnitude cheaper than haversine on the matching hot path.
 */
const METRES_PER_DEGREE_LAT = 110_574;
const METRES_PER_DEGREE_LNG_EQUATOR = 111_320;

export function metresPerDegreeLng(lat: number): number {
  return METRES_PER_DEGREE_LNG_EQUATOR * Math.cos((lat * Math.PI) / 180);
}

export function metresPerDegreeLat(): number {
  return METRES_PER_DEGREE_LAT;
}

/** Distance between two positions in metres (equirectangular around their mean latitude). */
export function distanceM(a: Position, b: Position): number {
  const dx = (b[0] - a[0]) * metresPerDegreeLng((a[1] + b[1]) / 2);
  const dy = (b[1] - a[1]) * METRES_PER_DEGREE_LAT;
  return Math.sqrt(dx * dx + dy * dy);
}

export function bboxOfRings(rings: readonly Ring[], into: BBox = { ...EMPTY_BBOX }): BBox {
  for (const ring of rings) {
    for (const [x, y] of ring) {
      if (x < into.minLng) into.minLng = x;
      if (x > into.maxLng) into.maxLng = x;
      if (y < into.minLat) into.minLat = y;
      if (y > into.maxLat) into.maxLat = y;
    }
  }
  return into;
}

export function bboxOfMulti(multi: MultiPolygon): BBox {
  const box = { ...EMPTY_BBOX };
  for (const part of multi) bboxOfRings([part.exterior], box);
  return box;
}

export function bboxesOverlap(a: BBox, b: BBox): boolean {
  return a.minLng <= b.maxLng && b.minLng <= a.maxLng && a.minLat <= b.maxLat && b.minLat <= a.maxLat;
}

export function bboxContains(box: BBox, x: number, y: number): boolean {
  return x >= box.minLng && x <= box.maxLng && y >= box.minLat && y <= box.maxLat;
}

/** Even-odd crossing test of one ring (boundary points may fall either way). */
export function pointInRing(x: number, y: number, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export function pointInMulti(x: number, y: number, multi: MultiPolygon): boolean {
  for (const part of multi) {
    if (!pointInRing(x, y, part.exterior)) continue;
    if (!part.holes.some((hole) => pointInRing(x, y, hole))) return true;
  }
  return false;
}

function orientation(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  const value = (by - ay) * (cx - bx) - (bx - ax) * (cy - by);
  return value > 0 ? 1 : value < 0 ? -1 : 0;
}

function onSegment(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): boolean {
  return Math.min(ax, cx) <= bx && bx <= Math.max(ax, cx) && Math.min(ay, cy) <= by && by <= Math.max(ay, cy);
}

/** Whether segment p1-p2 and segment q1-q2 share at least one point. */
export function segmentsIntersect(p1x: number, p1y: number, p2x: number, p2y: number, q1x: number, q1y: number, q2x: number, q2y: number): boolean {
  const o1 = orientation(p1x, p1y, p2x, p2y, q1x, q1y);
  const o2 = orientation(p1x, p1y, p2x, p2y, q2x, q2y);
  const o3 = orientation(q1x, q1y, q2x, q2y, p1x, p1y);
  const o4 = orientation(q1x, q1y, q2x, q2y, p2x, p2y);
  if (o1 !== o2 && o3 !== o4) return true;
  if (o1 === 0 && onSegment(p1x, p1y, q1x, q1y, p2x, p2y)) return true;
  if (o2 === 0 && onSegment(p1x, p1y, q2x, q2y, p2x, p2y)) return true;
  if (o3 === 0 && onSegment(q1x, q1y, p1x, p1y, q2x, q2y)) return true;
  if (o4 === 0 && onSegment(q1x, q1y, p2x, p2y, q2x, q2y)) return true;
  return false;
}

/** Distance in metres from a point to a segment, in the local projection around the point. */
export function pointSegmentDistanceM(px: number, py: number, ax: number, ay: number, bx: number, by: number, kx: number): number {
  const ky = METRES_PER_DEGREE_LAT;
  const x1 = (ax - px) * kx;
  const y1 = (ay - py) * ky;
  const x2 = (bx - px) * kx;
  const y2 = (by - py) * ky;
  const dx = x2 - x1;
  const dy = y2 - y1;
  const lengthSquared = dx * dx + dy * dy;
  let t = lengthSquared === 0 ? 0 : -(x1 * dx + y1 * dy) / lengthSquared;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const cx = x1 + t * dx;
  const cy = y1 + t * dy;
  return Math.sqrt(cx * cx + cy * cy);
}

/** Metres from a point to the nearest boundary of `multi`; 0 when the point is inside it. */
export function pointToMultiDistanceM(point: Position, multi: MultiPolygon): number {
  const [px, py] = point;
  if (pointInMulti(px, py, multi)) return 0;
  const kx = metresPerDegreeLng(py);
  let best = Infinity;
  for (const part of multi) {
    for (const ring of [part.exterior, ...part.holes]) {
      for (let i = 1; i < ring.length; i++) {
        const [ax, ay] = ring[i - 1]!;
        const [bx, by] = ring[i]!;
        const d = pointSegmentDistanceM(px, py, ax, ay, bx, by, kx);
        if (d < best) best = d;
      }
    }
  }
  return best;
}

/** Whether the circle (centre, radius in metres) and the multipolygon share a point. */
export function circleIntersectsMulti(center: Position, radiusM: number, multi: MultiPolygon): boolean {
  return pointToMultiDistanceM(center, multi) <= radiusM;
}

function ringsOf(multi: MultiPolygon): Ring[] {
  return multi.flatMap((part) => [part.exterior, ...part.holes]);
}

/**
 * Whether two multipolygons share a point: a vertex of one inside the other, or two edges that
 * cross. This is complete: if the interiors overlap without any edges crossing, one boundary lies
 * inside the other, so one of its vertices does.
 */
export function multisIntersect(a: MultiPolygon, b: MultiPolygon): boolean {
  if (!bboxesOverlap(bboxOfMulti(a), bboxOfMulti(b))) return false;
  const ringsA = ringsOf(a);
  const ringsB = ringsOf(b);
  for (const ring of ringsA) for (const [x, y] of ring) if (pointInMulti(x, y, b)) return true;
  for (const ring of ringsB) for (const [x, y] of ring) if (pointInMulti(x, y, a)) return true;
  for (const ra of ringsA) {
    for (let i = 1; i < ra.length; i++) {
      const [ax1, ay1] = ra[i - 1]!;
      const [ax2, ay2] = ra[i]!;
      for (const rb of ringsB) {
        for (let j = 1; j < rb.length; j++) {
          const [bx1, by1] = rb[j - 1]!;
          const [bx2, by2] = rb[j]!;
          if (segmentsIntersect(ax1, ay1, ax2, ay2, bx1, by1, bx2, by2)) return true;
        }
      }
    }
  }
  return false;
}

/** Area-weighted centroid (holes subtracted); the bbox centre for a degenerate shape. */
export function centroidOf(multi: MultiPolygon): Position {
  let area = 0;
  let cx = 0;
  let cy = 0;
  for (const part of multi) {
    for (const [sign, ring] of [[1, part.exterior] as const, ...part.holes.map((hole) => [-1, hole] as const)]) {
      let ringArea = 0;
      let rx = 0;
      let ry = 0;
      for (let i = 1; i < ring.length; i++) {
        const [x0, y0] = ring[i - 1]!;
        const [x1, y1] = ring[i]!;
        const cross = x0 * y1 - x1 * y0;
        ringArea += cross;
        rx += (x0 + x1) * cross;
        ry += (y0 + y1) * cross;
      }
      // Orientation of imported rings is not guaranteed: weigh each ring by its absolute area.
      const weight = sign * Math.abs(ringArea);
      if (ringArea !== 0) {
        cx += (rx / (3 * ringArea)) * weight;
        cy += (ry / (3 * ringArea)) * weight;
        area += weight;
      }
    }
  }
  if (area === 0) {
    const box = bboxOfMulti(multi);
    return [(box.minLng + box.maxLng) / 2, (box.minLat + box.maxLat) / 2];
  }
  return [cx / area, cy / area];
}
