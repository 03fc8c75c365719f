import type { Vitals } from './track-memory.js';

/**
 * How long a decaying thunderstorm cell is expected to remain one, from the trend of what the feed
 * says of it at every revision: its total flash rate and the area of its cell polygon. A cell stops
 * being a thunderstorm when its flash rate falls below the record's threshold, or when its core has
 * shrunk away. The total flash rate follows the cell's updraft (Williams et al. 1999, Atmos. Res. 51,
 * 245-265: it peaks before the storm's severe weather at the ground and falls as the updraft weakens),
 * so a falling rate and a shrinking core are a cell in decay. Each is extrapolated linearly from its
 * last TREND_WINDOW_MS; the nearer of the two ends is the cell's life ahead. A cell holding steady or
 * growing has none (undefined): nothing is held back. Real flash rates are noisier than the
 * simulator's smooth life cycle, so the trend is a least-squares line over several scans, never the
 * difference of the last two.
 */
export const TREND_WINDOW_MS = 15 * 60_000;
/** Fewest revisions a trend is drawn from: two scans differ by noise as often as by decay. */
const MIN_POINTS = 3;

/** Least-squares slope of `value` against minutes, and the fitted value at the newest time. */
function trend(points: ReadonlyArray<{ min: number; value: number }>): { slope: number; now: number } | undefined {
  const n = points.length;
  if (n < MIN_POINTS) return undefined;
  let mt = 0;
  let mv = 0;
  for (const p of points) {
    mt += p.min / n;
    mv += p.value / n;
  }
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    sxy += (p.min - mt) * (p.value - mv);
    sxx += (p.min - mt) ** 2;
  }
  if (sxx === 0) return undefined;
  const slope = sxy / sxx;
  return { slope, now: mv + slope * (points[n - 1]!.min - mt) };
}

/** Minutes until a falling trend reaches `floor`, or undefined when it does not fall. */
function minutesTo(points: ReadonlyArray<{ min: number; value: number }>, floor: number): number | undefined {
  const fitted = trend(points);
  if (!fitted || fitted.slope >= 0) return undefined;
  return Math.max(0, (fitted.now - floor) / -fitted.slope);
}

/**
 * Minutes the cell is expected to remain a thunderstorm, when its vitals show it decaying; undefined
 * when they do not (steady, growing, or too few revisions). `thresholdPerMin`: the record's flash rate
 * threshold of a thunderstorm.
 */
export function lifeAheadMin(vitals: ReadonlyArray<{ timeMs: number } & Vitals>, thresholdPerMin: number): number | undefined {
  if (vitals.length < MIN_POINTS) return undefined;
  const newest = vitals[vitals.length - 1]!.timeMs;
  const flashes: Array<{ min: number; value: number }> = [];
  const radii: Array<{ min: number; value: number }> = [];
  for (const v of vitals) {
    if (newest - v.timeMs > TREND_WINDOW_MS) continue;
    const min = (v.timeMs - newest) / 60_000;
    if (v.flashesPerMin !== undefined) flashes.push({ min, value: v.flashesPerMin });
    // The core's radius, not its area: a shrinking disc loses radius evenly, area ever faster.
    if (v.areaKm2 !== undefined && v.areaKm2 > 0) radii.push({ min, value: Math.sqrt(v.areaKm2 / Math.PI) });
  }
  const byFlashes = thresholdPerMin > 0 ? minutesTo(flashes, thresholdPerMin) : undefined;
  const byCore = minutesTo(radii, 0);
  if (byFlashes === undefined) return byCore;
  if (byCore === undefined) return byFlashes;
  return Math.min(byFlashes, byCore);
}
