import { bboxesOverlap as overlaps, emptyBBox, unionBBox } from './bbox.js';
import { segmentsIntersect } from './touches.js';
import type { BBox, MultiPolygon, Ring } from './types.js';

/**
 * Polygons as flat coordinate arrays ([lng0, lat0, lng1, lat1, ...], rings closed), for the
 * planar tests that run on every consumed event (which subscription areas does it touch?). Edges
 * are straight in longitude/latitude, as GeoJSON (RFC 7946) defines them.
 */
export interface FlatPolygon {
  bbox: BBox;
  /** Exterior first, then holes. */
  rings: Float64Array[];
}

export function flattenRing(ring: Ring): Float64Array {
  const flat = new Float64Array(ring.length * 2);
  for (let i = 0; i < ring.length; i++) {
    flat[2 * i] = ring[i]![0];
    flat[2 * i + 1] = ring[i]![1];
  }
  return flat;
}

function ringBBox(ring: Float64Array): BBox {
  let minLng = Infinity;
  let minLat = Infinity;
  let maxLng = -Infinity;
  let maxLat = -Infinity;
  for (let i = 0; i < ring.length; i += 2) {
    const x = ring[i]!;
    const y = ring[i + 1]!;
    if (x < minLng) minLng = x;
    if (x > maxLng) maxLng = x;
    if (y < minLat) minLat = y;
    if (y > maxLat) maxLat = y;
  }
  return { minLng, minLat, maxLng, maxLat };
}

export function flattenMultiPolygon(polygons: MultiPolygon): FlatPolygon[] {
  return polygons
    .filter((p) => p.exterior.length >= 4)
    .map((p) => {
      const rings = [flattenRing(p.exterior), ...p.holes.filter((h) => h.length >= 4).map(flattenRing)];
      return { bbox: ringBBox(rings[0]!), rings };
    });
}

/** The box of all parts. */
export function bboxOfParts(parts: readonly FlatPolygon[]): BBox {
  return parts.reduce((box, p) => unionBBox(box, p.bbox), emptyBBox());
}

function insideFlatRing(x: number, y: number, ring: Float64Array): boolean {
  let inside = false;
  const n = ring.length;
  for (let i = 0, j = n - 2; i < n; j = i, i += 2) {
    const xi = ring[i]!;
    const yi = ring[i + 1]!;
    const xj = ring[j]!;
    const yj = ring[j + 1]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Even-odd point-in-polygon: inside the exterior and in no hole. */
export function pointInFlatPolygon(x: number, y: number, polygon: FlatPolygon): boolean {
  const b = polygon.bbox;
  if (x < b.minLng || x > b.maxLng || y < b.minLat || y > b.maxLat) return false;
  let inside = false;
  for (const ring of polygon.rings) if (insideFlatRing(x, y, ring)) inside = !inside;
  return inside;
}

export function pointInAny(x: number, y: number, parts: readonly FlatPolygon[]): boolean {
  return parts.some((p) => pointInFlatPolygon(x, y, p));
}

/** The edges of `parts` that touch `box`, as flat [ax, ay, bx, by, ...]. */
function edgesIn(parts: readonly FlatPolygon[], box: BBox): number[] {
  const out: number[] = [];
  for (const part of parts) {
    if (!overlaps(part.bbox, box)) continue;
    for (const ring of part.rings) {
      for (let i = 0; i + 3 < ring.length; i += 2) {
        const ax = ring[i]!;
        const ay = ring[i + 1]!;
        const bx = ring[i + 2]!;
        const by = ring[i + 3]!;
        if (Math.max(ax, bx) < box.minLng || Math.min(ax, bx) > box.maxLng || Math.max(ay, by) < box.minLat || Math.min(ay, by) > box.maxLat) continue;
        out.push(ax, ay, bx, by);
      }
    }
  }
  return out;
}

/**
 * Whether two multi-polygons share any point. Without crossing edges, one intersects the other
 * only if it holds one of the other's vertices, so one vertex per part is enough for that test;
 * the edge test only looks at edges inside the overlap of the two boxes.
 */
export function flatPolygonsIntersect(a: readonly FlatPolygon[], aBox: BBox, b: readonly FlatPolygon[], bBox: BBox): boolean {
  if (!overlaps(aBox, bBox)) return false;
  for (const part of a) if (overlaps(part.bbox, bBox) && pointInAny(part.rings[0]![0]!, part.rings[0]![1]!, b)) return true;
  for (const part of b) if (overlaps(part.bbox, aBox) && pointInAny(part.rings[0]![0]!, part.rings[0]![1]!, a)) return true;
  const box: BBox = {
    minLng: Math.max(aBox.minLng, bBox.minLng),
    minLat: Math.max(aBox.minLat, bBox.minLat),
    maxLng: Math.min(aBox.maxLng, bBox.maxLng),
    maxLat: Math.min(aBox.maxLat, bBox.maxLat),
  };
  const ea = edgesIn(a, box);
  if (ea.length === 0) return false;
  const eb = edgesIn(b, box);
  for (let i = 0; i < ea.length; i += 4) {
    const ax = ea[i]!;
    const ay = ea[i + 1]!;
    const bx = ea[i + 2]!;
    const by = ea[i + 3]!;
    const minX = Math.min(ax, bx);
    const maxX = Math.max(ax, bx);
    const minY = Math.min(ay, by);
    const maxY = Math.max(ay, by);
    for (let j = 0; j < eb.length; j += 4) {
      const cx = eb[j]!;
      const cy = eb[j + 1]!;
      const dx = eb[j + 2]!;
      const dy = eb[j + 3]!;
      if (Math.max(cx, dx) < minX || Math.min(cx, dx) > maxX || Math.max(cy, dy) < minY || Math.min(cy, dy) > maxY) continue;
      if (segmentsIntersect(ax, ay, bx, by, cx, cy, dx, dy)) return true;
    }
  }
  return false;
}
