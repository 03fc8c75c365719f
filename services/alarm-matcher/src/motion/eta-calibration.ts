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

export const ETA_CALIBRATION: readonly CalibrationPoint[] = [
  { leadMin: 0, earlyKm: -1, lateKm: 1 },
  { leadMin: 10, earlyKm: -3, lateKm: 3 },
  { leadMin: 20, earlyKm: -5, lateKm: 6 },
  { leadMin: 30, earlyKm: -8, lateKm: 9 },
  { leadMin: 45, earlyKm: -12, lateKm: 14 },
  { leadMin: 60, earlyKm: -16, lateKm: 19 },
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
