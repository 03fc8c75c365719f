import { signedArea as planarSignedArea, type MultiPolygon, type Ring as PositionRing } from '@stormhook/geometry';
import type { LngLat, MultiPolygonShape } from './types.js';

/** Wire points as positions, for the shared geometry operations. */
export function positionsOf(points: readonly LngLat[]): PositionRing {
  return points.map((p) => [p.lng, p.lat] as const);
}

/** A wire multipolygon as the platform's geometry. */
export function multiPolygonOf(shape: MultiPolygonShape): MultiPolygon {
  return shape.polygons.map((p) => ({ exterior: positionsOf(p.exterior.points), holes: p.holes.map((h) => positionsOf(h.points)) }));
}

/** Signed planar area of a closed wire ring in square degrees; positive when counterclockwise (the RFC 7946 exterior orientation). */
export function signedArea(points: readonly LngLat[]): number {
  return planarSignedArea(positionsOf(points));
}

export function samePoint(a: LngLat, b: LngLat): boolean {
  return a.lng === b.lng && a.lat === b.lat;
}

/** First point equals last point exactly, as the contract (and GeoJSON) requires. */
export function isClosed(points: readonly LngLat[]): boolean {
  const first = points[0];
  const last = points[points.length - 1];
  return first !== undefined && last !== undefined && samePoint(first, last);
}

/** The ring without consecutive repeated vertices (which break orientation and clipping maths). */
export function withoutRepeats(points: readonly LngLat[]): LngLat[] {
  const out: LngLat[] = [];
  for (const p of points) {
    const previous = out[out.length - 1];
    if (previous === undefined || !samePoint(previous, p)) out.push({ lng: p.lng, lat: p.lat });
  }
  return out;
}

/** The ring running counterclockwise (ccw true) or clockwise, reversed only when needed. */
export function oriented(points: LngLat[], ccw: boolean): LngLat[] {
  const isCcw = signedArea(points) > 0;
  return isCcw === ccw ? points : [...points].reverse();
}
