import type { commonV1 } from '@stormhook/proto';
import type { LngLat } from '../domain/geo/types.js';
import { moveKm, roundCoord } from './geo-math.js';
import type { Harmonic } from './storms.js';

/** Vertices of a contour ring (before closing): enough to look round, few enough to stay small. */
export const RING_SAMPLES = 48;

const TWO_PI = 2 * Math.PI;

/**
 * How far a contour reaches at bearing `theta` (radians, clockwise from north), as a fraction of its
 * mean radius: slowly drifting harmonics plus an elongation across the direction of travel (fronts
 * are long bands, cells nearly round) and a bulge towards the leading edge for the cores.
 */
export function shapeFactor(
  harmonics: readonly Harmonic[],
  hours: number,
  theta: number,
  shape: { elongation: number; acrossRad: number; leadBulge: number; headingRad: number },
): number {
  let f = 1;
  for (const h of harmonics) f += h.amp * Math.sin(h.k * theta + h.phase + h.radPerHour * hours);
  f += shape.elongation * Math.cos(2 * (theta - shape.acrossRad));
  f += shape.leadBulge * Math.cos(theta - shape.headingRad);
  return f;
}

/** The bearing of sample i, radians clockwise from north. */
export function sampleBearing(i: number): number {
  return (TWO_PI * i) / RING_SAMPLES;
}

/**
 * A closed ring through the points at `radiiKm[i]` from `center` along each sample bearing.
 * Bearings run clockwise, so the ring is reversed for the counterclockwise exterior orientation.
 */
export function ringFromRadii(center: LngLat, radiiKm: readonly number[], ccw: boolean): commonV1.LinearRing {
  const points = radiiKm.map((r, i) => roundCoord(moveKm(center, (sampleBearing(i) * 180) / Math.PI, r)));
  if (ccw) points.reverse();
  points.push({ ...points[0]! });
  return { points };
}

/**
 * Where a cell of radius `radiusKm` will pass in the next `hours`: the hull of its disc now and at
 * the end of the track (a stadium), counterclockwise.
 */
export function sweptDisc(center: LngLat, radiusKm: number, headingDeg: number, distanceKm: number): commonV1.LinearRing {
  const end = moveKm(center, headingDeg, distanceKm);
  const points: LngLat[] = [];
  const half = RING_SAMPLES / 2;
  // Front half around the end of the track, then back half around the start: clockwise bearings.
  for (let i = 0; i <= half; i++) points.push(roundCoord(moveKm(end, headingDeg - 90 + (180 * i) / half, radiusKm)));
  for (let i = 0; i <= half; i++) points.push(roundCoord(moveKm(center, headingDeg + 90 + (180 * i) / half, radiusKm)));
  points.reverse();
  points.push({ ...points[0]! });
  return { points };
}
