import type { BBox, MultiPolygon, Position } from '@stormhook/geometry';
import { crossing, pointArrival, type Area, type Crossing } from './crossing.js';
import { spreadAt } from './eta-calibration.js';
import { velocityOf, type Motion } from './motion.js';
import { MovingShape } from './moving-shape.js';

/** How far ahead arrivals are predicted, minutes. */
export const HORIZON_MIN = 60;
/** How far back an entry into the area is reconstructed (a START finds the storm already inside). */
const LOOKBACK_MIN = 60;
const MINUTE = 60_000;

export type Confidence = 'HIGH' | 'MEDIUM' | 'LOW';

/** The `eta` object of START, UPDATE and APPROACHING callbacks (payload version 2). */
export interface Eta {
  /** Predicted (or, once inside, reconstructed) entry into the area, epoch ms. */
  arrivalEpochMillis: number;
  /** Predicted exit from the area, epoch ms; null when it is still inside at the horizon. */
  departureEpochMillis: number | null;
  /** The window the true arrival falls in, in 8 of 10 cases as measured by the skill benchmark. */
  arrivalEarliestEpochMillis: number;
  arrivalLatestEpochMillis: number;
  /** Minutes from the observation to the predicted arrival; 0 once inside. */
  leadMinutes: number;
  confidence: Confidence;
  trackAgeMinutes: number;
  /** The motion the prediction extrapolates; null when the event's motion is unknown (nothing projected). */
  motion: { speedKmh: number; towardDeg: number; fromDeg: number; source: Motion['source'] } | null;
  /** The observation the prediction starts from, epoch ms. */
  issuedEpochMillis: number;
  horizonMinutes: number;
  method: 'LINEAR_EXTRAPOLATION';
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

/**
 * HIGH: a steady track (quality ≥ 0.7) at least 15 minutes old and an arrival at most 30 minutes out;
 * LOW: an unsteady or unknown track, or an arrival more than 45 minutes out (cells rarely keep their
 * course that long: Wilson et al. 1998); MEDIUM between.
 */
export function confidenceOf(motion: Motion | undefined, leadMin: number): Confidence {
  if (!motion || motion.quality < 0.4 || leadMin > 45) return 'LOW';
  if (motion.quality >= 0.7 && motion.trackAgeMin >= 15 && leadMin <= 30) return 'HIGH';
  return 'MEDIUM';
}

/**
 * One revision of a storm cell or rain area, projected along its motion: when it enters and leaves
 * each area it may reach within the horizon. Made once per revision and asked per area; crossings are
 * kept per area key, since many registrations share an area.
 */
export class EventProjection {
  readonly moving: MovingShape | undefined;
  private readonly crossings = new Map<string, Crossing | undefined>();
  private readonly entries = new Map<string, number | undefined>();

  /**
   * @param lifeAheadMin minutes the event is expected to remain what it is, when it is seen decaying
   *   (decay.ts); undefined when it is not, or nothing tells.
   */
  constructor(
    readonly observedMs: number,
    polygon: MultiPolygon,
    box: BBox,
    readonly motion: Motion | undefined,
    readonly lifeAheadMin?: number,
  ) {
    this.moving = polygon.length > 0 ? new MovingShape(polygon, box, velocityOf(motion ?? { speedKmh: 0, towardDeg: 0 })) : undefined;
  }

  /** The box of everything the polygon covers over the horizon, for finding the areas it may reach. */
  pathBox(): BBox | undefined {
    return this.moving?.sweptBox(0, this.motion ? HORIZON_MIN : 0);
  }

  /** Contact with the area from an hour back to the horizon (minutes from the observation), or undefined. */
  crossingOf(key: string, area: Area): Crossing | undefined {
    if (this.crossings.has(key)) return this.crossings.get(key);
    const found = this.moving ? crossing(area, this.moving, this.motion ? -LOOKBACK_MIN : 0, this.motion ? HORIZON_MIN : 0) : undefined;
    this.crossings.set(key, found);
    return found;
  }

  /**
   * Minutes to the first contact ahead (0 when touching now), or undefined when none is predicted:
   * the question asked of every area along the path, so it looks ahead only and never for the exit.
   */
  entryAhead(key: string, area: Area): number | undefined {
    if (this.entries.has(key)) return this.entries.get(key);
    const full = this.crossings.get(key);
    let entry: number | undefined;
    if (full) entry = full.entryMin >= 0 ? full.entryMin : full.exitMin === undefined || full.exitMin >= 0 ? 0 : undefined;
    else if (!this.crossings.has(key) && this.moving) entry = crossing(area, this.moving, 0, this.motion ? HORIZON_MIN : 0, 1, { exit: false })?.entryMin;
    this.entries.set(key, entry);
    return entry;
  }

  /**
   * Whether the event is expected to last until an entry `entryMin` minutes ahead. A warning is not
   * opened for an entry after a decaying cell's expected end: in the skill benchmark, 44 % of the
   * false APPROACHING came from cells that died before they arrived. The prediction itself (eta)
   * is still given; a warning already standing is not withdrawn for it. The end is taken as the
   * trend says, without a margin either way: on the benchmark's development seed, holding back
   * entries beyond half the expected life cut the false alarms a little more (0.307 against 0.327)
   * at the cost of detections (0.682 against 0.697), and a warning missed costs more than one too many.
   */
  outlives(entryMin: number): boolean {
    return this.lifeAheadMin === undefined || entryMin <= this.lifeAheadMin;
  }

  /**
   * The prediction for one area. `insideNow`: the event touches the area at its observation (the
   * matcher's own test decides, so the eta agrees with START/END).
   */
  etaFor(key: string, area: Area, insideNow: boolean): Eta | undefined {
    const found = this.crossingOf(key, area);
    if (!found && !insideNow) return undefined;
    const observed = this.observedMs;
    const entryMin = insideNow ? Math.min(0, found?.entryMin ?? 0) : found!.entryMin;
    const exitMin = found ? found.exitMin : 0;
    if (!insideNow && entryMin < 0) return undefined; // it passed already
    const leadMin = Math.max(0, entryMin);
    const speed = this.motion?.speedKmh ?? 0;
    const spread = spreadAt(leadMin);
    // Kilometres along the track become minutes at the storm's speed; capped at the horizon.
    const toMin = (km: number): number => (speed > 0 ? Math.max(-HORIZON_MIN, Math.min(HORIZON_MIN, (km / speed) * 60)) : 0);
    const arrival = observed + entryMin * MINUTE;
    const earliest = leadMin === 0 ? arrival : Math.max(observed, arrival + toMin(spread.earlyKm) * MINUTE);
    const latest = leadMin === 0 ? arrival : arrival + toMin(spread.lateKm) * MINUTE;
    const motion = this.motion;
    return {
      arrivalEpochMillis: Math.round(arrival),
      departureEpochMillis: exitMin === undefined ? null : Math.round(observed + Math.max(exitMin, entryMin) * MINUTE),
      arrivalEarliestEpochMillis: Math.round(earliest),
      arrivalLatestEpochMillis: Math.round(latest),
      leadMinutes: round1(leadMin),
      confidence: confidenceOf(motion, leadMin),
      trackAgeMinutes: round1(motion?.trackAgeMin ?? 0),
      motion: motion
        ? {
            speedKmh: round1(motion.speedKmh),
            towardDeg: Math.round(motion.towardDeg) % 360,
            fromDeg: Math.round(motion.towardDeg + 180) % 360,
            source: motion.source,
          }
        : null,
      issuedEpochMillis: observed,
      horizonMinutes: HORIZON_MIN,
      method: 'LINEAR_EXTRAPOLATION',
    };
  }

  /** When the polygon reaches `point` (epoch ms): now if it covers it, the predicted time if it will within the horizon. */
  arrivalAt(point: Position): number | undefined {
    if (!this.moving) return undefined;
    const minutes = pointArrival(point, this.moving, 0, this.motion ? HORIZON_MIN : 0);
    return minutes === undefined ? undefined : Math.round(this.observedMs + minutes * MINUTE);
  }
}
