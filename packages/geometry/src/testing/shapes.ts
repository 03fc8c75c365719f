import type { MultiPolygon, Position, Ring } from '../types.js';

/** A closed axis-aligned rectangle ring, counterclockwise. */
export function rectangleRing(minLng: number, minLat: number, maxLng: number, maxLat: number): Ring {
  return [
    [minLng, minLat],
    [maxLng, minLat],
    [maxLng, maxLat],
    [minLng, maxLat],
    [minLng, minLat],
  ];
}

/** A closed axis-aligned square ring, counterclockwise. */
export function squareRing(minLng: number, minLat: number, size: number): Ring {
  return rectangleRing(minLng, minLat, minLng + size, minLat + size);
}

export function square(minLng: number, minLat: number, size: number): MultiPolygon {
  return [{ exterior: squareRing(minLng, minLat, size), holes: [] }];
}

/** A closed ring approximating a circle, counterclockwise (radius in degrees). */
export function circleRing(center: Position, radiusDeg: number, steps = 32): Ring {
  const ring: Position[] = [];
  for (let i = 0; i <= steps; i++) {
    const angle = ((i % steps) / steps) * 2 * Math.PI;
    ring.push([center[0] + radiusDeg * Math.cos(angle), center[1] + radiusDeg * Math.sin(angle)]);
  }
  return ring;
}

/** A deterministic pseudo-random generator (mulberry32), so failures reproduce. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
