import { metresPerDegreeLng, METRES_PER_DEGREE_LAT } from './distance.js';
import type { BBox, MultiPolygon, Ring } from './types.js';

export function bboxOfRings(rings: Iterable<Ring>): BBox {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const ring of rings) {
    for (const [x, y] of ring) {
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  return [minX, minY, maxX, maxY];
}

export function bboxOf(geometry: MultiPolygon): BBox {
  return bboxOfRings(geometry.flat());
}

export function bboxIntersects(a: BBox, b: BBox): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

export function bboxContains(box: BBox, lng: number, lat: number): boolean {
  return lng >= box[0] && lng <= box[2] && lat >= box[1] && lat <= box[3];
}

/**
 * The box grown by at least `metres` on every side. The longitude margin uses the latitude of the
 * box edge nearest a pole, where a degree of longitude is shortest, so the growth never falls short.
 */
export function expandBBox(box: BBox, metres: number): BBox {
  const dLat = metres / METRES_PER_DEGREE_LAT;
  const poleward = Math.min(89, Math.max(Math.abs(box[1]), Math.abs(box[3])) + dLat);
  const dLng = Math.min(180, metres / metresPerDegreeLng(poleward));
  return [box[0] - dLng, box[1] - dLat, box[2] + dLng, box[3] + dLat];
}
