import { bboxesOverlap, bboxOfRings, pointInRing, type BBox } from '@stormhook/geometry';
import type { Problems } from '../problems.js';
import { isClosed, oriented, positionsOf, signedArea, withoutRepeats } from './rings.js';
import type { LngLat, MultiPolygonShape, PolygonShape, Ring } from './types.js';

/** Wire shapes as decoded from protobuf: sub-messages may be null or absent. */
export interface WirePoint {
  lng: number;
  lat: number;
}
export interface WireRing {
  points: WirePoint[];
}
export interface WirePolygon {
  exterior?: WireRing | null;
  holes: WireRing[];
}
export interface WireMultiPolygon {
  polygons: WirePolygon[];
}

/** Running vertex count of a record, so one record's rings together stay under the limit. */
export interface VertexBudget {
  used: number;
  readonly max: number;
}

export function checkPoint(problems: Problems, path: string, p: WirePoint): boolean {
  let ok = true;
  if (!Number.isFinite(p.lng) || p.lng < -180 || p.lng > 180) {
    problems.add(`${path}.lng`, `${p.lng} is outside -180 to 180 degrees`);
    ok = false;
  }
  if (!Number.isFinite(p.lat) || p.lat < -90 || p.lat > 90) {
    problems.add(`${path}.lat`, `${p.lat} is outside -90 to 90 degrees`);
    ok = false;
  }
  return ok;
}

/**
 * A ring as the contract requires it: at least three distinct vertices, closed (first point equals
 * last), coordinates in range, and enclosing an area. Returns the ring without repeated consecutive
 * vertices, still closed, or undefined after reporting why not.
 */
function checkRing(problems: Problems, path: string, ring: WireRing | null | undefined, budget: VertexBudget): LngLat[] | undefined {
  if (!ring || ring.points.length === 0) {
    problems.add(path, 'is required and must have at least 4 points');
    return undefined;
  }
  budget.used += ring.points.length;
  if (budget.used > budget.max) {
    problems.add(path, `the record has more than ${budget.max} vertices in total`);
    return undefined;
  }
  let ok = true;
  for (const [i, p] of ring.points.entries()) {
    if (!checkPoint(problems, `${path}.points[${i}]`, p)) {
      ok = false;
      break;
    }
  }
  if (!ok) return undefined;
  if (!isClosed(ring.points)) {
    problems.add(path, 'ring is not closed: the first point must equal the last');
    return undefined;
  }
  const points = withoutRepeats(ring.points);
  // Repeats removed, a closed ring of n distinct vertices has n + 1 points.
  if (points.length < 4) {
    problems.add(path, `ring has ${Math.max(0, points.length - 1)} distinct vertices; at least 3 are needed`);
    return undefined;
  }
  if (Math.abs(signedArea(points)) < 1e-12) {
    problems.add(path, 'ring encloses no area (all vertices on one line)');
    return undefined;
  }
  return points;
}

/**
 * Validates one polygon and normalises it: exterior counterclockwise, holes clockwise (RFC 7946),
 * every hole inside the exterior.
 */
export function normalisePolygon(problems: Problems, path: string, polygon: WirePolygon | null | undefined, budget: VertexBudget): PolygonShape | undefined {
  if (!polygon) {
    problems.add(path, 'is required');
    return undefined;
  }
  const exterior = checkRing(problems, `${path}.exterior`, polygon.exterior, budget);
  if (!exterior) return undefined;
  const holes: Ring[] = [];
  const exteriorRing = positionsOf(exterior);
  for (const [i, wire] of polygon.holes.entries()) {
    const hole = checkRing(problems, `${path}.holes[${i}]`, wire, budget);
    if (!hole) return undefined;
    const outside = hole.find((p) => !pointInRing(p.lng, p.lat, exteriorRing));
    if (outside) {
      problems.add(`${path}.holes[${i}]`, `hole vertex (${outside.lng}, ${outside.lat}) lies outside the exterior ring`);
      return undefined;
    }
    holes.push({ points: oriented(hole, false) });
  }
  return { exterior: { points: oriented(exterior, true) }, holes };
}

/** Validates and normalises a multipolygon that must touch the coverage box. */
export function normaliseMultiPolygon(
  problems: Problems,
  path: string,
  geometry: WireMultiPolygon | null | undefined,
  budget: VertexBudget,
  coverage: BBox,
): MultiPolygonShape | undefined {
  if (!geometry || geometry.polygons.length === 0) {
    problems.add(path, 'is required and must hold at least one polygon');
    return undefined;
  }
  const polygons: PolygonShape[] = [];
  for (const [i, wire] of geometry.polygons.entries()) {
    const polygon = normalisePolygon(problems, `${path}.polygons[${i}]`, wire, budget);
    if (!polygon) return undefined;
    polygons.push(polygon);
  }
  if (!checkCoverage(problems, path, polygons, coverage)) return undefined;
  return { polygons };
}

export function checkCoverage(problems: Problems, path: string, polygons: readonly PolygonShape[], coverage: BBox): boolean {
  const box = bboxOfRings(polygons.map((p) => positionsOf(p.exterior.points)));
  if (!bboxesOverlap(box, coverage)) {
    problems.add(path, `lies wholly outside the covered area ${describeBox(coverage)}`);
    return false;
  }
  return true;
}

export function describeBox(box: BBox): string {
  return `lng ${box.minLng}..${box.maxLng}, lat ${box.minLat}..${box.maxLat}`;
}
