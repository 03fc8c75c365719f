import type { BBox, LngLat } from './types.js';

/**
 * The signed planar area of a closed ring in square degrees, longitude as x and latitude
 * as y. Positive when the ring runs counterclockwise (the RFC 7946 exterior orientation).
 */
export function signedArea(points: readonly LngLat[]): number {
  let sum = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const a = points[i]!;
    const b = points[i + 1]!;
    sum += a.lng * b.lat - b.lng * a.lat;
  }
  return sum / 2;
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

/** Even-odd ray casting; points on an edge may fall either way, which is fine for our checks. */
export function pointInRing(p: LngLat, ring: readonly LngLat[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i]!;
    const b = ring[j]!;
    if (a.lat > p.lat !== b.lat > p.lat && p.lng < ((b.lng - a.lng) * (p.lat - a.lat)) / (b.lat - a.lat) + a.lng) {
      inside = !inside;
    }
  }
  return inside;
}

export function bboxOf(points: Iterable<LngLat>): BBox {
  let minLng = Infinity;
  let minLat = Infinity;
  let maxLng = -Infinity;
  let maxLat = -Infinity;
  for (const p of points) {
    if (p.lng < minLng) minLng = p.lng;
    if (p.lng > maxLng) maxLng = p.lng;
    if (p.lat < minLat) minLat = p.lat;
    if (p.lat > maxLat) maxLat = p.lat;
  }
  return { minLng, minLat, maxLng, maxLat };
}

export function unionBBox(a: BBox, b: BBox): BBox {
  return {
    minLng: Math.min(a.minLng, b.minLng),
    minLat: Math.min(a.minLat, b.minLat),
    maxLng: Math.max(a.maxLng, b.maxLng),
    maxLat: Math.max(a.maxLat, b.maxLat),
  };
}

export function bboxIntersects(a: BBox, b: BBox): boolean {
  return a.minLng <= b.maxLng && b.minLng <= a.maxLng && a.minLat <= b.maxLat && b.minLat <= a.maxLat;
}

export function bboxContains(box: BBox, p: LngLat): boolean {
  return p.lng >= box.minLng && p.lng <= box.maxLng && p.lat >= box.minLat && p.lat <= box.maxLat;
}
