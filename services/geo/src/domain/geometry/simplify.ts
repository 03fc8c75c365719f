import { metresPerDegreeLat, metresPerDegreeLng, originToSegmentSquared, ringsOf, type MultiPolygon, type Position, type Ring } from '@stormhook/geometry';
import { MIN_RING_POINTS } from './ring.js';

/**
 * Douglas-Peucker on a closed ring with the tolerance in metres: no kept segment is farther than
 * `toleranceM` from the original vertices it replaces. The ring stays closed and keeps at least three
 * distinct vertices (four positions), so a small island shrinks to a triangle instead of vanishing
 * or degenerating into a line. Like every vertex-dropping method it can, rarely, make a ring touch
 * itself or a neighbour; callers that need strict validity use a small tolerance.
 */
export function simplifyRing(ring: Ring, toleranceM: number): Ring {
  const n = ring.length;
  if (!(toleranceM > 0) || n <= MIN_RING_POINTS) return ring;
  const m = n - 1; // ring[m] repeats ring[0]
  let latSum = 0;
  for (let i = 0; i < m; i++) latSum += ring[i]![1];
  const kx = metresPerDegreeLng(latSum / m);
  const ky = metresPerDegreeLat(latSum / m);
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    xs[i] = ring[i]![0] * kx;
    ys[i] = ring[i]![1] * ky;
  }

  // A closed ring has no natural end points: split it at vertex 0 and the vertex farthest from it.
  let far = 0;
  let farD = -1;
  for (let i = 1; i < m; i++) {
    const d = Math.hypot(xs[i]! - xs[0]!, ys[i]! - ys[0]!);
    if (d > farD) {
      farD = d;
      far = i;
    }
  }
  if (far === 0) return ring;

  const keep = new Uint8Array(n);
  keep[0] = keep[far] = keep[m] = 1;
  const distanceFrom = (i: number, a: number, b: number) =>
    Math.sqrt(originToSegmentSquared(xs[a]! - xs[i]!, ys[a]! - ys[i]!, xs[b]! - xs[i]!, ys[b]! - ys[i]!));
  const stack: number[] = [0, far, far, m];
  while (stack.length > 0) {
    const b = stack.pop()!;
    const a = stack.pop()!;
    let best = -1;
    let bestD = toleranceM;
    for (let i = a + 1; i < b; i++) {
      const d = distanceFrom(i, a, b);
      if (d > bestD) {
        bestD = d;
        best = i;
      }
    }
    if (best >= 0) {
      keep[best] = 1;
      stack.push(a, best, best, b);
    }
  }

  let distinct = 0;
  for (let i = 0; i < m; i++) distinct += keep[i]!;
  if (distinct < 3) {
    // Everything fitted within the tolerance of the chord 0-far: keep the vertex that spans the most area.
    let best = -1;
    let bestD = -1;
    for (let i = 1; i < m; i++) {
      if (i === far) continue;
      const d = distanceFrom(i, 0, far);
      if (d > bestD) {
        bestD = d;
        best = i;
      }
    }
    if (best < 0) return ring;
    keep[best] = 1;
  }

  const out: Position[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(ring[i]!);
  return out;
}

export function simplifyMultiPolygon(geometry: MultiPolygon, toleranceM: number): MultiPolygon {
  if (!(toleranceM > 0)) return geometry;
  return geometry.map((polygon) => ({
    exterior: simplifyRing(polygon.exterior, toleranceM),
    holes: polygon.holes.map((ring) => simplifyRing(ring, toleranceM)),
  }));
}

/** Number of positions, to report how much a simplification saved. */
export function countPositions(geometry: MultiPolygon): number {
  let count = 0;
  for (const ring of ringsOf(geometry)) count += ring.length;
  return count;
}
