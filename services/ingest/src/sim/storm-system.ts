import type { LngLat } from '../domain/geo/types.js';

/**
 * The shapes of the simulator's storm systems, apart from the code that draws them (storms.ts) and
 * moves them (motion.ts): each of those needs the other's types, and with the types in either file
 * the two imported each other.
 */

export type StormKind = 'convective' | 'frontal';

/** One shape harmonic of a contour: amplitude (fraction of the radius), phase and drift. */
export interface Harmonic {
  k: number;
  amp: number;
  phase: number;
  radPerHour: number;
}

/** Everything about a storm system, drawn once at birth; its state at any time follows from it. */
export interface StormSystem {
  id: string;
  kind: StormKind;
  birthMs: number;
  lifeMs: number;
  origin: LngLat;
  /** Steering motion: the track wanders around it (median speed, mean heading); without a track, the motion itself. */
  speedKmh: number;
  directionDeg: number;
  maxRadiusKm: number;
  peakRateMmPerH: number;
  maxFlashesPerMin: number;
  cgFraction: number;
  /** Shape of each precipitation contour level (index 0 = the rain edge). */
  shapes: Harmonic[][];
  /** Where the centre really goes (motion.ts); none = a straight line at the steering motion. */
  track?: MotionTrack;
  /** Cell records this often instead of at the radar's interval (the approach demo's rapid scan). */
  scanMs?: number;
}

/** Displacement of the centre from the origin at each knot (k * KNOT_MS after birth), km east and north. */
export interface MotionTrack {
  eastKm: number[];
  northKm: number[];
}
