import { bboxOf, signedArea } from './rings.js';
import type { LngLat, MultiPolygonShape, PolygonShape } from './types.js';

const KM_PER_DEGREE_LAT = 110.574;
const KM_PER_DEGREE_LNG_AT_EQUATOR = 111.32;

/**
 * Area of normalised polygons (exterior counterclockwise, holes clockwise) in square kilometres.
 * An equirectangular projection at the geometry's mid latitude is within a fraction of a percent
 * for storm-sized shapes (tens to hundreds of km), which is all an area figure here is used for.
 */
export function areaKm2(polygons: readonly PolygonShape[]): number {
  const all = polygons.flatMap((p) => p.exterior.points);
  if (all.length === 0) return 0;
  const box = bboxOf(all);
  const midLat = ((box.minLat + box.maxLat) / 2) * (Math.PI / 180);
  const scale = KM_PER_DEGREE_LAT * KM_PER_DEGREE_LNG_AT_EQUATOR * Math.cos(midLat);
  let degrees2 = 0;
  for (const polygon of polygons) {
    degrees2 += Math.abs(signedArea(polygon.exterior.points));
    for (const hole of polygon.holes) degrees2 -= Math.abs(signedArea(hole.points));
  }
  return Math.max(0, degrees2 * scale);
}

/** Centroid of one closed ring weighted by its signed area; [cx*A, cy*A, A] so rings can be summed. */
function ringMoments(points: readonly LngLat[]): [number, number, number] {
  let cx = 0;
  let cy = 0;
  let twiceArea = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const a = points[i]!;
    const b = points[i + 1]!;
    const cross = a.lng * b.lat - b.lng * a.lat;
    twiceArea += cross;
    cx += (a.lng + b.lng) * cross;
    cy += (a.lat + b.lat) * cross;
  }
  return [cx / 6, cy / 6, twiceArea / 2];
}

/**
 * Area-weighted centroid of a multipolygon in decimal degrees (holes subtract). Degenerate input
 * (zero area) falls back to the centre of the bounding box.
 */
export function centroidOf(shape: MultiPolygonShape): LngLat {
  let sx = 0;
  let sy = 0;
  let area = 0;
  for (const polygon of shape.polygons) {
    const rings = [polygon.exterior, ...polygon.holes];
    for (const [index, ring] of rings.entries()) {
      const [mx, my, a] = ringMoments(ring.points);
      // Exteriors count positive and holes negative whatever their stored orientation.
      const sign = (index === 0 ? 1 : -1) * Math.sign(a);
      sx += sign * mx;
      sy += sign * my;
      area += sign * a;
    }
  }
  if (Math.abs(area) < 1e-15) {
    const box = bboxOf(shape.polygons.flatMap((p) => p.exterior.points));
    return { lng: (box.minLng + box.maxLng) / 2, lat: (box.minLat + box.maxLat) / 2 };
  }
  return { lng: sx / area, lat: sy / area };
}
