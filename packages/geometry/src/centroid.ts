import { bboxOfMultiPolygon } from './bbox.js';
import type { MultiPolygon, Position } from './types.js';

/**
 * Area-weighted centroid in lng/lat (holes subtracted); the box centre for a shape without area.
 * Ring orientation is not relied on: each ring weighs by its absolute area, exteriors positive and
 * holes negative.
 */
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
      const weight = sign * Math.abs(ringArea);
      if (ringArea !== 0) {
        cx += (rx / (3 * ringArea)) * weight;
        cy += (ry / (3 * ringArea)) * weight;
        area += weight;
      }
    }
  }
  if (area === 0) {
    const box = bboxOfMultiPolygon(multi);
    return [(box.minLng + box.maxLng) / 2, (box.minLat + box.maxLat) / 2];
  }
  return [cx / area, cy / area];
}
