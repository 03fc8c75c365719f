/**
 * How far real arrivals fell from the predicted ones, as distance along the track (km), at each lead
 * time: the 10th and 90th percentiles of (true arrival − predicted arrival) × speed, measured by the
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
 * Measured 2026-11-27 by `node test/dist/bench/eta-skill-bench.js --calibrate` on calibration seed 2901
 * (48 simulated hours from 15 July 2025, 60 systems alive at once, default motion noise; 375 cells):
 * the arrivals each row rests on are in its comment. The late side is the wider one: the feed's
 * vector is the last 10 minutes' motion, and over half of the predictions came from cells moving
 * faster than 1.3 times their steering speed at the scan, which then slowed down (their 90th
 * percentile at lead 30 was 43 km late); from 30 to 60 min the late side hardly grows, because a
 * late arrival needs the cell to live that long and many die first. Re-measure whenever the
 * predictor or the simulator's motion changes; the windows are judged on the benchmark's evaluation seed.
 */
export const ETA_CALIBRATION: readonly CalibrationPoint[] = [
  { leadMin: 0, earlyKm: -0.8, lateKm: 2.3 }, // 4172 arrivals
  { leadMin: 10, earlyKm: -2.8, lateKm: 9 }, // 6656 arrivals
  { leadMin: 20, earlyKm: -5.4, lateKm: 18.6 }, // 4967 arrivals
  { leadMin: 30, earlyKm: -7.7, lateKm: 23.3 }, // 3620 arrivals
  { leadMin: 45, earlyKm: -11.2, lateKm: 25.5 }, // 2303 arrivals
  { leadMin: 60, earlyKm: -14.9, lateKm: 26 }, // 775 arrivals
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
