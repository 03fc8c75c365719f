import type { Position } from '@stormhook/geometry';
import { degreesPerKm, headingOf, type Motion } from './motion.js';

interface Fix {
  timeMs: number;
  position: Position;
}

export interface TrackMemoryOptions {
  /** Positions kept per event (the newest). */
  maxFixes: number;
  /** Only positions this recent (before the newest) enter the velocity fit. */
  fitWindowMs: number;
  /** Events held at most; the least recently updated are forgotten first. */
  maxEvents: number;
}

export const DEFAULT_TRACK_MEMORY: TrackMemoryOptions = { maxFixes: 12, fitWindowMs: 30 * 60_000, maxEvents: 50_000 };

/**
 * The recent positions of each tracked event (centroids at their observation times), held in memory by
 * the instance that matches the event, and the velocity they show: a least-squares line through the
 * positions of the last `fitWindowMs` (smoothing the jitter of one centroid), with the scatter around
 * it as the track's quality. Bounded in events and positions; an instance that never saw an event's
 * earlier revisions (a restart, a rebalance) starts its track afresh, and the feed's vector covers it.
 */
export class TrackMemory {
  private readonly tracks = new Map<string, Fix[]>();

  constructor(private readonly options: TrackMemoryOptions = DEFAULT_TRACK_MEMORY) {}

  get size(): number {
    return this.tracks.size;
  }

  /** Records a position; a time already held (a replay) or older than the newest is ignored. */
  observe(eventId: string, timeMs: number, position: Position): void {
    let fixes = this.tracks.get(eventId);
    if (fixes) {
      this.tracks.delete(eventId); // re-inserted below: Map order is the recency order
      const newest = fixes[fixes.length - 1]!;
      if (timeMs > newest.timeMs) fixes.push({ timeMs, position });
      if (fixes.length > this.options.maxFixes) fixes = fixes.slice(fixes.length - this.options.maxFixes);
    } else {
      fixes = [{ timeMs, position }];
    }
    this.tracks.set(eventId, fixes);
    while (this.tracks.size > this.options.maxEvents) this.tracks.delete(this.tracks.keys().next().value!);
  }

  forget(eventId: string): void {
    this.tracks.delete(eventId);
  }

  /** Age and length of the event's track (0 and 0 when unknown). */
  extent(eventId: string): { trackAgeMin: number; trackPoints: number } {
    const fixes = this.tracks.get(eventId);
    if (!fixes || fixes.length === 0) return { trackAgeMin: 0, trackPoints: 0 };
    return { trackAgeMin: (fixes[fixes.length - 1]!.timeMs - fixes[0]!.timeMs) / 60_000, trackPoints: fixes.length };
  }

  /** The motion the positions show, or undefined with fewer than two positions in the fit window. */
  estimate(eventId: string): Motion | undefined {
    const all = this.tracks.get(eventId);
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
