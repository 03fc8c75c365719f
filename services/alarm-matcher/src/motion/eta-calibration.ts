/**
 * How far real arrivals fell from the predicted ones, as distance along the track (km), at each lead
 * time: the 8th and 92nd percentiles of (true arrival − predicted arrival) × speed (the bench's
 * WINDOW_QUANTILES, wide enough to hold 8 of 10 arrivals on seeds they were not measured on), measured by the
 * skill benchmark (`test/src/bench/eta-skill-bench.ts`) on its CALIBRATION seed. The benchmark then
 * judges the windows on a different seed that no test and no calibration uses. Distance, not minutes,
 * is what a wrong motion vector costs; a slow storm turns the same kilometres into more minutes.
 * Negative = the storm arrived earlier than predicted.
 */
export interface CalibrationPoint {
  leadMin: number;
  earlyKm: number;
  lateKm: number;
}

/**
 * Measured 2026-11-28 by `node test/dist/bench/eta-skill-bench.js --calibrate` on calibration seed 2901
 * (48 simulated hours from 15 July 2025, 60 systems alive at once, default motion noise; 375 cells),
 * with the motion damped towards the cell's mean and the regional flow (damping.ts): the arrivals
 * each row rests on are in its comment. The late side is still the wider one up to 45 min (a cell
 * seen in a spurt keeps half of it, and a late arrival needs the cell to live that long, so from 30
 * min on it hardly grows); the 90th percentile was 23.3 km at 30 min before the damping, when the
 * latest vector was extrapolated as it came (15.3 km after it). Re-measure whenever the predictor or the simulator's motion changes; the
 * windows are judged on the benchmark's evaluation seeds.
 */
export const ETA_CALIBRATION: readonly CalibrationPoint[] = [
  { leadMin: 0, earlyKm: -1.1, lateKm: 2.2 }, // 3664 arrivals
  { leadMin: 10, earlyKm: -3.9, lateKm: 6.6 }, // 6102 arrivals
  { leadMin: 20, earlyKm: -7.2, lateKm: 11.9 }, // 4882 arrivals
  { leadMin: 30, earlyKm: -10.1, lateKm: 18.2 }, // 3799 arrivals
  { leadMin: 45, earlyKm: -14.4, lateKm: 18.6 }, // 2614 arrivals
  { leadMin: 60, earlyKm: -18.1, lateKm: 22.4 }, // 906 arrivals
];

/** The calibrated along-track spread at `leadMin`, interpolated between the measured leads. */
export function spreadAt(leadMin: number, table: readonly CalibrationPoint[] = ETA_CALIBRATION): { earlyKm: number; lateKm: number } {
  const first = table[0]!;
  if (leadMin <= first.leadMin) return { earlyKm: first.earlyKm, lateKm: first.lateKm };
  for (let i = 1; i < table.length; i++) {
    const b = table[i]!;
    if (leadMin <= b.leadMin) {
      const a = table[i - 1]!;
      const f = (leadMin - a.leadMin) / (b.leadMin - a.leadMin);
      return { earlyKm: a.earlyKm + f * (b.earlyKm - a.earlyKm), lateKm: a.lateKm + f * (b.lateKm - a.lateKm) };
    }
  }
  const last = table[table.length - 1]!;
  return { earlyKm: last.earlyKm, lateKm: last.lateKm };
}
