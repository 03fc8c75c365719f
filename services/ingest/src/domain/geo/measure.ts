import { bboxOfRings, centroidOf as planarCentroid, metresPerDegreeLat, metresPerDegreeLng } from '@stormhook/geometry';
import { multiPolygonOf, positionsOf, signedArea } from './rings.js';
import type { LngLat, MultiPolygonShape, PolygonShape } from './types.js';

/**
 * Area of normalised polygons (exterior counterclockwise, holes clockwise) in square kilometres.
 * Square degrees scaled by the ellipsoid's degree lengths at the geometry's mid latitude: within a
 * fraction of a percent for storm-sized shapes (tens to hundreds of km), which is all an area
 * figure here is used for.
 */
export function areaKm2(polygons: readonly PolygonShape[]): number {
  const box = bboxOfRings(polygons.map((p) => positionsOf(p.exterior.points)));
  if (!Number.isFinite(box.minLat)) return 0;
  const midLat = (box.minLat + box.maxLat) / 2;
  const scale = (metresPerDegreeLat(midLat) * metresPerDegreeLng(midLat)) / 1e6;
  let degrees2 = 0;
  for (const polygon of polygons) {
    degrees2 += Math.abs(signedArea(polygon.exterior.points));
    for (const hole of polygon.holes) degrees2 -= Math.abs(signedArea(hole.points));
  }
  return Math.max(0, degrees2 * scale);
}

/** Area-weighted centroid of a wire multipolygon in decimal degrees (holes subtract; see the geometry package). */
export function centroidOf(shape: MultiPolygonShape): LngLat {
  const [lng, lat] = planarCentroid(multiPolygonOf(shape));
  return { lng, lat };
}
