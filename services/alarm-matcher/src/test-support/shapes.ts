import type { MultiPolygon, Position, Ring } from '../geometry/types.js';

/** A closed axis-aligned square ring, counterclockwise. */
export function squareRing(minLng: number, minLat: number, size: number): Ring {
  return [
    [minLng, minLat],
    [minLng + size, minLat],
    [minLng + size, minLat + size],
    [minLng, minLat + size],
    [minLng, minLat],
  ];
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
