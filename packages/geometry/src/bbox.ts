import { metresPerDegreeLat, metresPerDegreeLng } from './local-scale.js';
import type { BBox, MultiPolygon, Ring } from './types.js';

/** A box holding nothing: growing it by any point gives that point's box. */
export function emptyBBox(): BBox {
  return { minLng: Infinity, minLat: Infinity, maxLng: -Infinity, maxLat: -Infinity };
}

/** The box of every position of `rings`, grown into `into` when given. */
export function bboxOfRings(rings: Iterable<Ring>, into: BBox = emptyBBox()): BBox {
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

/** The box of a multipolygon (holes lie inside their exteriors, so exteriors are enough). */
export function bboxOfMultiPolygon(multi: MultiPolygon): BBox {
  const box = emptyBBox();
  for (const part of multi) bboxOfRings([part.exterior], box);
  return box;
}

export function bboxesOverlap(a: BBox, b: BBox): boolean {
  return a.minLng <= b.maxLng && b.minLng <= a.maxLng && a.minLat <= b.maxLat && b.minLat <= a.maxLat;
}

export function bboxContains(box: BBox, lng: number, lat: number): boolean {
  return lng >= box.minLng && lng <= box.maxLng && lat >= box.minLat && lat <= box.maxLat;
}

/** Whether `inner` lies wholly within `outer`. */
export function bboxWithin(outer: BBox, inner: BBox): boolean {
  return outer.minLng <= inner.minLng && outer.maxLng >= inner.maxLng && outer.minLat <= inner.minLat && outer.maxLat >= inner.maxLat;
}

export function unionBBox(a: BBox, b: BBox): BBox {
  return {
    minLng: Math.min(a.minLng, b.minLng),
    minLat: Math.min(a.minLat, b.minLat),
    maxLng: Math.max(a.maxLng, b.maxLng),
    maxLat: Math.max(a.maxLat, b.maxLat),
  };
}

/**
 * The box grown by at least `metres` on every side. The longitude margin uses the latitude of the
 * box edge nearest a pole, where a degree of longitude is shortest, so the growth never falls short;
 * the 0.1 % extra covers the gap between a straight lng/lat offset and the geodesic one.
 */
export function expandBBox(box: BBox, metres: number): BBox {
  const grow = metres * 1.001;
  const dLat = grow / metresPerDegreeLat(0);
  const poleward = Math.min(89.9, Math.max(Math.abs(box.minLat), Math.abs(box.maxLat)) + dLat);
  const dLng = Math.min(180, grow / metresPerDegreeLng(poleward));
  return { minLng: box.minLng - dLng, minLat: box.minLat - dLat, maxLng: box.maxLng + dLng, maxLat: box.maxLat + dLat };
}

/** A box holding every point of the geodesic circle, for quick rejections before exact tests. */
export function circleBBox(lng: number, lat: number, radiusM: number): BBox {
  return expandBBox({ minLng: lng, minLat: lat, maxLng: lng, maxLat: lat }, radiusM);
}
