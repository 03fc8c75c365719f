import type { Position } from '@stormhook/geometry';
import type { OwnMean } from './damping.js';
import { degreesPerKm, headingOf, type Motion, type Velocity } from './motion.js';
import { RegionalFlow } from './regional-flow.js';

/** What a revision says of the event's strength, when the feed says it: their trend tells a decaying event (decay.ts). */
export interface Vitals {
  /** Total flash rate, flashes per minute (thunderstorm cells). */
  flashesPerMin?: number;
  areaKm2?: number;
}

interface Fix {
  timeMs: number;
  position: Position;
  vitals: Vitals | undefined;
}

interface Track {
  fixes: Fix[];
  /** Sum and count of the feed vectors of the whole track (the event's own mean motion, in two numbers). */
  feedEast: number;
  feedNorth: number;
  feedCount: number;
}

/** What one revision adds to an event's track beside its position. */
export interface Observation {
  /** The feed's motion vector, when it sent a plausible one. */
  feed?: Velocity;
  /** The kind of event ('thunderstorm', 'precipitation'): the feed vector joins that kind's regional flow where the event is. */
  flow?: string;
  vitals?: Vitals;
}

export interface TrackMemoryOptions {
  /** Positions kept per event (the newest). */
  maxFixes: number;
  /** Only positions this recent (before the newest) enter the velocity fit. */
  fitWindowMs: number;
  /** Events held at most; the least recently updated are forgotten first. */
  maxEvents: number;
}

/**
 * The regional flow is kept per tile of this many degrees (about 280 km north-south): cells a few
 * hundred kilometres apart can be steered by different winds, cells within one tile mostly are not.
 */
export const FLOW_TILE_DEG = 2.5;
/** Tiles held at most (Turkey takes about 30 per kind); the least recently fed are forgotten first. */
const MAX_FLOWS = 2_000;

export const DEFAULT_TRACK_MEMORY: TrackMemoryOptions = { maxFixes: 12, fitWindowMs: 30 * 60_000, maxEvents: 50_000 };

/**
 * The recent positions of each tracked event (centroids at their observation times), held in memory by
 * the instance that matches the event, and the velocity they show: a least-squares line through the
 * positions of the last `fitWindowMs` (smoothing the jitter of one centroid), with the scatter around
 * it as the track's quality. Beside the positions: the sum of the event's feed vectors (its own mean
 * motion), the vitals of its recent revisions (flash rate, area) and, per kind of event and tile, the
 * regional flow. Bounded in events, positions and tiles (three numbers per event for the mean, four
 * per tile for the flow); an instance that never saw an event's earlier revisions (a restart, a rebalance) starts its
 * track afresh, and the feed's vector covers it.
 */
export class TrackMemory {
  private readonly tracks = new Map<string, Track>();
  /** One regional flow per kind of event and tile, at most MAX_FLOWS. */
  private readonly flows = new Map<string, RegionalFlow>();

  constructor(private readonly options: TrackMemoryOptions = DEFAULT_TRACK_MEMORY) {}

  get size(): number {
    return this.tracks.size;
  }

  /**
   * Records a position (with the feed's vector and the event's vitals, when known); a time already
   * held (a replay) or older than the newest is ignored, vector and all.
   */
  observe(eventId: string, timeMs: number, position: Position, observation: Observation = {}): void {
    let track = this.tracks.get(eventId);
    let fresh = true;
    const fix: Fix = { timeMs, position, vitals: observation.vitals };
    if (track) {
      this.tracks.delete(eventId); // re-inserted below: Map order is the recency order
      const newest = track.fixes[track.fixes.length - 1]!;
      fresh = timeMs > newest.timeMs;
      if (fresh) track.fixes.push(fix);
      if (track.fixes.length > this.options.maxFixes) track.fixes = track.fixes.slice(track.fixes.length - this.options.maxFixes);
    } else {
      track = { fixes: [fix], feedEast: 0, feedNorth: 0, feedCount: 0 };
    }
    if (fresh && observation.feed) {
      track.feedEast += observation.feed.eastKmPerMin;
      track.feedNorth += observation.feed.northKmPerMin;
      track.feedCount++;
      if (observation.flow !== undefined) this.flowAt(observation.flow, position, true)!.add(timeMs, observation.feed);
    }
    this.tracks.set(eventId, track);
    while (this.tracks.size > this.options.maxEvents) this.tracks.delete(this.tracks.keys().next().value!);
  }

  /** The flow of a kind of event in the tile holding `at` (created when `create`); the least recently fed are forgotten beyond MAX_FLOWS. */
  private flowAt(kind: string, at: Position, create: boolean): RegionalFlow | undefined {
    const key = `${kind}:${Math.floor(at[0] / FLOW_TILE_DEG)}:${Math.floor(at[1] / FLOW_TILE_DEG)}`;
    let flow = this.flows.get(key);
    if (!create) return flow;
    if (flow)
      this.flows.delete(key); // re-inserted: Map order is the recency order
    else flow = new RegionalFlow();
    this.flows.set(key, flow);
    if (this.flows.size > MAX_FLOWS) this.flows.delete(this.flows.keys().next().value!);
    return flow;
  }

  /** The mean of the event's own feed vectors over its whole track, or undefined when it sent none. */
  ownMean(eventId: string): OwnMean | undefined {
    const track = this.tracks.get(eventId);
    if (!track || track.feedCount === 0) return undefined;
    return { velocity: { eastKmPerMin: track.feedEast / track.feedCount, northKmPerMin: track.feedNorth / track.feedCount }, count: track.feedCount };
  }

  /** The regional flow of a kind of event around `at` (regional-flow.ts), or undefined before the tile's first vector. */
  flow(kind: string, at: Position): ReturnType<RegionalFlow['mean']> {
    return this.flowAt(kind, at, false)?.mean();
  }

  /** The newest position held for the event. */
  latest(eventId: string): Position | undefined {
    const fixes = this.tracks.get(eventId)?.fixes;
    return fixes?.[fixes.length - 1]?.position;
  }

  /** The event's held revisions that carried vitals, oldest first (at most `maxFixes`). */
  vitals(eventId: string): Array<{ timeMs: number } & Vitals> {
    const out: Array<{ timeMs: number } & Vitals> = [];
    for (const fix of this.tracks.get(eventId)?.fixes ?? []) if (fix.vitals) out.push({ timeMs: fix.timeMs, ...fix.vitals });
    return out;
  }

  forget(eventId: string): void {
    this.tracks.delete(eventId);
  }

  /** Age and length of the event's track (0 and 0 when unknown). */
  extent(eventId: string): { trackAgeMin: number; trackPoints: number } {
    const fixes = this.tracks.get(eventId)?.fixes;
    if (!fixes || fixes.length === 0) return { trackAgeMin: 0, trackPoints: 0 };
    return { trackAgeMin: (fixes[fixes.length - 1]!.timeMs - fixes[0]!.timeMs) / 60_000, trackPoints: fixes.length };
  }

  /** The motion the positions show, or undefined with fewer than two positions in the fit window. */
  estimate(eventId: string): Motion | undefined {
    const all = this.tracks.get(eventId)?.fixes;
    if (!all || all.length < 2) return undefined;
    const newest = all[all.length - 1]!;
    const fixes = all.filter((f) => newest.timeMs - f.timeMs <= this.options.fitWindowMs);
    if (fixes.length < 2) return undefined;
    const per = degreesPerKm(newest.position);
    // Local kilometres around the newest position, minutes before it.
    const t = fixes.map((f) => (f.timeMs - newest.timeMs) / 60_000);
    const x = fixes.map((f) => (f.position[0] - newest.position[0]) / per.lng);
    const y = fixes.map((f) => (f.position[1] - newest.position[1]) / per.lat);
    const fit = (values: number[]): { slope: number; residuals: number[] } => {
      const n = t.length;
      const mt = t.reduce((a, b) => a + b, 0) / n;
      const mv = values.reduce((a, b) => a + b, 0) / n;
      let sxy = 0;
      let sxx = 0;
      for (let i = 0; i < n; i++) {
        sxy += (t[i]! - mt) * (values[i]! - mv);
        sxx += (t[i]! - mt) ** 2;
      }
      const slope = sxx === 0 ? 0 : sxy / sxx;
      return { slope, residuals: values.map((v, i) => v - (mv + slope * (t[i]! - mt))) };
    };
    const fx = fit(x);
    const fy = fit(y);
    const heading = headingOf({ eastKmPerMin: fx.slope, northKmPerMin: fy.slope });
    // Two positions always lie on a line: their quality says only that the track is young.
    const rmsKm = Math.sqrt(fx.residuals.reduce((a, r, i) => a + r * r + fy.residuals[i]! ** 2, 0) / fixes.length);
    const steadiness = 1 / (1 + rmsKm / 2);
    const youth = Math.min(1, (fixes.length - 1) / 3);
    const extent = this.extent(eventId);
    return { ...heading, source: 'TRACK', ...extent, quality: Math.round(steadiness * youth * 100) / 100 };
  }
}
