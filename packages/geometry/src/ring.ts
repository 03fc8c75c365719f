import type { Ring } from './types.js';

/** First position equals last exactly, as GeoJSON and the contract require. */
export function isClosed(ring: Ring): boolean {
  const first = ring[0];
  const last = ring[ring.length - 1];
  return first !== undefined && last !== undefined && first[0] === last[0] && first[1] === last[1];
}

/** Signed planar area of a closed ring in square degrees (shoelace); positive when counterclockwise. */
export function signedArea(ring: Ring): number {
  let sum = 0;
  for (let i = 1; i < ring.length; i++) {
    const [x0, y0] = ring[i - 1]!;
    const [x1, y1] = ring[i]!;
    sum += x0 * y1 - x1 * y0;
  }
  return sum / 2;
}
