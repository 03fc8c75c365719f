import type { LngLat } from '../domain/geo/types.js';
import { clamp, moveKm, offsetKm } from './geo-math.js';
import type { Random } from './random.js';
import type { MotionTrack, StormKind, StormSystem } from './storm-system.js';

/**
 * How a storm system moves: its drawn speed and direction are the steering motion, and its real
 * velocity wanders around it.
 *
 * Sizes. No published statistic of how much a cell's heading and speed change over 30-60 min was
 * found (searched: TITAN, SCIT, TRT, Rossi et al. 2015 JTECH 32:461, Lanpher 2012; only abstracts
 * were readable), so the sizes are derived from the published error of linear extrapolation:
 *
 * - Ebert, E. E., et al., 2004: Verification of nowcasts from the WWRP Sydney 2000 Forecast
 *   Demonstration Project. Weather and Forecasting 19(1), 73ff, doi:10.1175/1520-0434(2004)019<0073:VONFTW>2.0.CO;2.
 *   Taken from the abstract: cell trackers placed the strongest cells with a mean error of about
 *   15-30 km at 1 h; area trackers about 20 km.
 * - Correlation time 25 min: the mean duration of simple (no split, no merge) TITAN tracks over ten
 *   years of Belgian radar data (Goudenhoofdt, E. and L. Delobbe, 2013: Statistical characteristics
 *   of convective storms in Belgium derived from volumetric weather radar observations. J. Appl.
 *   Meteor. Climatol. 52; abstract), that is the life of one cell: a multicell storm's centre drifts
 *   off its steering motion as cells die and new ones grow beside them, which is why extrapolation
 *   "decreases very rapidly during the first 30 min" (Wilson, J. W., et al., 1998: Nowcasting
 *   thunderstorms: A status report. Bull. Amer. Meteor. Soc. 79(10), 2079-2099; abstract).
 *
 * Model: the heading offset (radians) and the log of the speed factor are two independent
 * Ornstein-Uhlenbeck processes with one standard deviation (so the velocity noise is the same along
 * and across the track), correlation time 25 min, sampled at 5-min knots (one radar scan) with the
 * velocity constant between knots. The deviation was found by bisection on the simulator itself so
 * that extrapolating the last 10 minutes' displacement (what the feed reports) 60 min ahead misses the
 * true centre by a mean of 22.5 km for convective systems (the middle of 15-30 km, at the simulator's
 * 12-50 km/h) and 20 km for frontal ones (the area trackers' figure, at 25-60 km/h), over every scan
 * of a thousand July hours; motion.spec.ts checks both. The resulting sizes (speed factor: the
 * velocity over the steering speed):
 *
 * | kind       | heading sd | log speed-factor sd | heading change sd over 30 / 60 min | speed factor 1-sigma | miss at 30 / 60 min (mean) |
 * |------------|------------|---------------------|-------------------------------------|----------------------|----------------------------|
 * | convective | 37 deg     | 0.64                | 43 / 49 deg                         | x0.53 to x1.9        | 10 / 22.6 km               |
 * | frontal    | 23 deg     | 0.41                | 28 / 32 deg                         | x0.66 to x1.5        | 9 / 20.0 km                |
 *
 * The simulator has no centroid jitter, no mis-association and no centre shift from growth and decay,
 * all of which are in Ebert's errors; here all of that error is motion, so these sizes are at the upper
 * end of real motion change, and a predictor scores on this feed about what published trackers scored,
 * not better. They were never tuned against a predictor of ours.
 */
export const MOTION_NOISE: Readonly<Record<StormKind, { sd: number }>> = {
  convective: { sd: 0.64 },
  frontal: { sd: 0.41 },
};

/** The velocity of a track is drawn every radar scan. */
export const KNOT_MS = 5 * 60_000;
/** Correlation time of the velocity noise (see above). */
export const MOTION_TAU_MS = 25 * 60_000;
/**
 * A storm keeps between a third and three times its steering speed, so the drawn speed range stays
 * plausible (no 200 km/h cells). With the convective spread about one knot in twelve sits at a limit
 * (the frontal: one in 140); the sizes above were measured with the limits in place.
 */
const SPEED_FACTOR_RANGE = [1 / 3, 3] as const;
/** The feed reports the displacement over the last two scans, as a tracker does. */
export const OBSERVED_OVER_MS = 10 * 60_000;

const HOUR = 3_600_000;
const RAD = Math.PI / 180;

export type { MotionTrack } from './storm-system.js';

export interface Motion {
  speedKmh: number;
  /** Towards which the storm moves, degrees clockwise from north, [0, 360). */
  directionDeg: number;
}

/**
 * The track of a system, drawn at birth from its own stream; undefined (a straight line) when `scale`
 * is 0. The noise starts from its stationary spread, so a storm is as unsteady at birth as later.
 */
export function drawTrack(system: Pick<StormSystem, 'kind' | 'speedKmh' | 'directionDeg' | 'lifeMs'>, rng: Random, scale: number): MotionTrack | undefined {
  if (!(scale > 0)) return undefined;
  const sd = MOTION_NOISE[system.kind].sd * scale;
  const keep = Math.exp(-KNOT_MS / MOTION_TAU_MS);
  const fresh = Math.sqrt(1 - keep * keep);
  let heading = rng.normal(0, sd);
  let logSpeed = rng.normal(0, sd);
  const track: MotionTrack = { eastKm: [0], northKm: [0] };
  const knots = Math.ceil(system.lifeMs / KNOT_MS) + 1;
  for (let k = 1; k <= knots; k++) {
    const km = system.speedKmh * clamp(Math.exp(logSpeed), SPEED_FACTOR_RANGE[0], SPEED_FACTOR_RANGE[1]) * (KNOT_MS / HOUR);
    const rad = system.directionDeg * RAD + heading;
    track.eastKm.push(track.eastKm[k - 1]! + km * Math.sin(rad));
    track.northKm.push(track.northKm[k - 1]! + km * Math.cos(rad));
    heading = keep * heading + fresh * rng.normal(0, sd);
    logSpeed = keep * logSpeed + fresh * rng.normal(0, sd);
  }
  return track;
}

/** Where the centre is at t relative to the origin, km; before birth or past the last knot, the end segment goes on straight. */
export function displacementKm(system: StormSystem, t: number): { eastKm: number; northKm: number } {
  const { track } = system;
  if (!track) {
    const km = system.speedKmh * ((t - system.birthMs) / HOUR);
    const rad = (system.directionDeg * Math.PI) / 180;
    return { eastKm: km * Math.sin(rad), northKm: km * Math.cos(rad) };
  }
  const last = track.eastKm.length - 2;
  const at = (t - system.birthMs) / KNOT_MS;
  const k = clamp(Math.floor(at), 0, last);
  const f = at - k;
  return {
    eastKm: track.eastKm[k]! + (track.eastKm[k + 1]! - track.eastKm[k]!) * f,
    northKm: track.northKm[k]! + (track.northKm[k + 1]! - track.northKm[k]!) * f,
  };
}

/** The true centre at t (stateAt's, which is undefined outside the system's life; this one is not). */
export function centerAt(system: StormSystem, t: number): LngLat {
  // Straight systems keep the very arithmetic they always had, so their records stay byte for byte.
  if (!system.track) return moveKm(system.origin, system.directionDeg, system.speedKmh * ((t - system.birthMs) / HOUR));
  const d = displacementKm(system, t);
  return offsetKm(system.origin, d.eastKm, d.northKm);
}

function motionOf(eastKm: number, northKm: number, hours: number): Motion {
  return { speedKmh: Math.hypot(eastKm, northKm) / hours, directionDeg: (((Math.atan2(eastKm, northKm) / RAD) % 360) + 360) % 360 };
}

/** The true velocity at t: that of the 5-min segment holding t (the steering motion for straight systems). */
export function velocityAt(system: StormSystem, t: number): Motion {
  const { track } = system;
  if (!track) return { speedKmh: system.speedKmh, directionDeg: system.directionDeg };
  const k = clamp(Math.floor((t - system.birthMs) / KNOT_MS), 0, track.eastKm.length - 2);
  return motionOf(track.eastKm[k + 1]! - track.eastKm[k]!, track.northKm[k + 1]! - track.northKm[k]!, KNOT_MS / HOUR);
}

/**
 * The motion a tracker reports at scan time t: the centre's displacement over the last 10 minutes
 * (since birth for a younger storm). Within a minute of birth there is nothing to measure yet, and
 * the steering motion stands in, as trackers push new cells along the mean wind.
 */
export function observedMotion(system: StormSystem, t: number): Motion {
  const from = Math.max(system.birthMs, t - OBSERVED_OVER_MS);
  if (t - from < 60_000) return { speedKmh: system.speedKmh, directionDeg: system.directionDeg };
  const a = displacementKm(system, from);
  const b = displacementKm(system, t);
  return motionOf(b.eastKm - a.eastKm, b.northKm - a.northKm, (t - from) / HOUR);
}

/**
 * Where the motion observed at t puts the centre `leadMs` later: what a nowcast shows. Worked in the
 * system's own km frame, so for a straight system it is exactly its true centre then, as it always was.
 */
export function extrapolatedCenter(system: StormSystem, t: number, leadMs: number): LngLat {
  if (!system.track) return centerAt(system, t + leadMs);
  const motion = observedMotion(system, t);
  const at = displacementKm(system, t);
  const km = (motion.speedKmh * leadMs) / HOUR;
  const rad = motion.directionDeg * RAD;
  return offsetKm(system.origin, at.eastKm + km * Math.sin(rad), at.northKm + km * Math.cos(rad));
}
