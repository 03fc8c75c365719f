/**
 * The scoring of the arrival-skill benchmark (eta-skill-bench.ts), kept pure so its spec can check
 * every definition on hand-made cases: lead buckets, arrival errors, window coverage, the
 * APPROACHING lifecycle of one cell and one area as the live matcher runs it, and probability of
 * detection and false-alarm ratio.
 */

const MINUTE = 60_000;

/** One prediction of a cell's entry into an area it has not touched yet, with the truth beside it. */
export interface Prediction {
  /** The scan the prediction was made from (the record's observation time), epoch ms. */
  issuedMs: number;
  /** Predicted entry (`eta.arrivalEpochMillis`). */
  predictedMs: number;
  /** The window (`eta.arrivalEarliestEpochMillis`, `eta.arrivalLatestEpochMillis`). */
  earliestMs: number;
  latestMs: number;
  /** The speed the prediction extrapolated, km/h. */
  speedKmh: number;
  /** The true entry at or after the issue, or undefined when the cell never enters the area while it is a cell. */
  trueMs: number | undefined;
}

/** A range of predicted lead times, minutes: [fromMin, toMin), or [fromMin, toMin] when `closed`. */
export interface LeadBucket {
  leadMin: number;
  fromMin: number;
  toMin: number;
  closed?: boolean;
}

/** The leads the issue asks about, each ±5 min; the last one ends at the horizon (60 min), included. */
export const LEAD_BUCKETS: readonly LeadBucket[] = [
  { leadMin: 10, fromMin: 5, toMin: 15 },
  { leadMin: 20, fromMin: 15, toMin: 25 },
  { leadMin: 30, fromMin: 25, toMin: 35 },
  { leadMin: 45, fromMin: 40, toMin: 50 },
  { leadMin: 60, fromMin: 55, toMin: 60, closed: true },
];

/** The leads of ETA_CALIBRATION: lead 0 is a prediction less than 5 min ahead. */
export const CALIBRATION_BUCKETS: readonly LeadBucket[] = [{ leadMin: 0, fromMin: 0, toMin: 5 }, ...LEAD_BUCKETS];

export function leadOf(p: Pick<Prediction, 'issuedMs' | 'predictedMs'>): number {
  return (p.predictedMs - p.issuedMs) / MINUTE;
}

export function inBucket(leadMin: number, bucket: LeadBucket): boolean {
  return leadMin >= bucket.fromMin && (bucket.closed ? leadMin <= bucket.toMin : leadMin < bucket.toMin);
}

/** The p-quantile (0..1) of ascending values, linearly interpolated between order statistics; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = p * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Arrival error along the track, km: (true − predicted) × speed; negative = the storm arrived early. */
export function alongTrackKm(p: Prediction): number | undefined {
  return p.trueMs === undefined ? undefined : ((p.trueMs - p.predictedMs) / MINUTE) * (p.speedKmh / 60);
}

/** What the bench reports for one lead bucket. */
export interface LeadMetrics {
  leadMin: number;
  /** Predictions whose lead falls in the bucket. */
  count: number;
  /** ... of which the cell really entered the area (at any time of its life after the issue). */
  withEntry: number;
  /** Mean |true − predicted| over those with an entry, minutes. */
  maeMin: number;
  medianAbsMin: number;
  /** Mean (true − predicted), minutes: negative = early on average. */
  biasMin: number;
  /** Share of the true entries inside [earliest, latest]. */
  coverage: number;
  /** Share of the predictions that never verified: no true entry within 60 min after the predicted time. */
  unverified: number;
  /** Mean |true − predicted| × speed over those with an entry, km. */
  meanAlongKm: number;
}

export function leadMetrics(predictions: readonly Prediction[], bucket: LeadBucket): LeadMetrics {
  const inside = predictions.filter((p) => inBucket(leadOf(p), bucket));
  const entered = inside.filter((p): p is Prediction & { trueMs: number } => p.trueMs !== undefined);
  const errors = entered.map((p) => (p.trueMs - p.predictedMs) / MINUTE);
  const absolute = errors.map(Math.abs).sort((a, b) => a - b);
  const covered = entered.filter((p) => p.trueMs >= p.earliestMs && p.trueMs <= p.latestMs).length;
  const unverified = inside.filter((p) => p.trueMs === undefined || p.trueMs > p.predictedMs + 60 * MINUTE).length;
  return {
    leadMin: bucket.leadMin,
    count: inside.length,
    withEntry: entered.length,
    maeMin: mean(absolute),
    medianAbsMin: percentile(absolute, 0.5),
    biasMin: mean(errors),
    coverage: entered.length === 0 ? Number.NaN : covered / entered.length,
    unverified: inside.length === 0 ? Number.NaN : unverified / inside.length,
    meanAlongKm: mean(entered.map((p) => Math.abs(alongTrackKm(p)!))),
  };
}

/** One row of ETA_CALIBRATION as measured, with how many errors it rests on. */
export interface MeasuredSpread {
  leadMin: number;
  earlyKm: number;
  lateKm: number;
  samples: number;
}

/**
 * The percentiles of the along-track error that bound ETA_CALIBRATION's windows. The 8th and 92nd,
 * not the 10th and 90th: a window is judged on seeds it was not measured on, where the 10th-90th
 * windows of the calibration seed held 79.0 % at 45 min on the development seed (2907). Asking 84 %
 * of the calibration seed keeps 8 of 10 on the others; the coverage itself is scored as before.
 */
export const WINDOW_QUANTILES = { early: 0.08, late: 0.92 } as const;

/** The WINDOW_QUANTILES of the along-track error per calibration lead, rounded to 0.1 km. */
export function measureSpread(
  predictions: readonly Prediction[],
  buckets: readonly LeadBucket[] = CALIBRATION_BUCKETS,
  quantiles: { early: number; late: number } = WINDOW_QUANTILES,
): MeasuredSpread[] {
  const round1 = (x: number): number => Math.round(x * 10) / 10;
  return buckets.map((bucket) => {
    const along = predictions
      .filter((p) => inBucket(leadOf(p), bucket))
      .map(alongTrackKm)
      .filter((km): km is number => km !== undefined)
      .sort((a, b) => a - b);
    return {
      leadMin: bucket.leadMin,
      earlyKm: round1(percentile(along, quantiles.early)),
      lateKm: round1(percentile(along, quantiles.late)),
      samples: along.length,
    };
  });
}

/** The table as TypeScript, in the shape of ETA_CALIBRATION in services/alarm-matcher/src/motion/eta-calibration.ts. */
export function calibrationSource(rows: readonly MeasuredSpread[]): string {
  const lines = rows.map((r) => `  { leadMin: ${r.leadMin}, earlyKm: ${r.earlyKm}, lateKm: ${r.lateKm} }, // ${r.samples} arrivals`);
  return ['export const ETA_CALIBRATION: readonly CalibrationPoint[] = [', ...lines, '];'].join('\n');
}

/** A span of time during which the true cell touches an area, epoch ms (both ends included). */
export interface Contact {
  fromMs: number;
  toMs: number;
}

/**
 * The contacts seen by sampling: `touching[i]` tells whether the cell touched the area at `times[i]`
 * (ascending). Each edge between an untouching and a touching sample is narrowed by `edge(outside,
 * inside)`, which returns the earliest (or latest) touching time it finds between them.
 */
export function contactsFromSamples(times: readonly number[], touching: readonly boolean[], edge: (outsideMs: number, insideMs: number) => number): Contact[] {
  const out: Contact[] = [];
  let from: number | undefined;
  for (let i = 0; i < times.length; i++) {
    if (touching[i] && from === undefined) from = i === 0 ? times[0]! : edge(times[i - 1]!, times[i]!);
    if (!touching[i] && from !== undefined) {
      out.push({ fromMs: from, toMs: edge(times[i]!, times[i - 1]!) });
      from = undefined;
    }
  }
  if (from !== undefined) out.push({ fromMs: from, toMs: times[times.length - 1]! });
  return out;
}

/** When the cell is next in the area at or after `t`: the start of the next contact, or `t` itself inside one; undefined if never. */
export function entryAfter(contacts: readonly Contact[], t: number): number | undefined {
  for (const c of contacts) if (c.toMs >= t) return Math.max(c.fromMs, t);
  return undefined;
}

/** One APPROACHING sent: when, and when it was cancelled (NO_LONGER_PREDICTED), if it was. */
export interface Approach {
  issuedMs: number;
  cancelledMs?: number;
}

/** The lifecycle of one cell and one area before the cell first touches it (tracked-event.ts decideRevision). */
export interface ApproachState {
  /** The matcher has seen the cell touch the area (START): the first entry is over, nothing more is judged. */
  touched: boolean;
  approaching: boolean;
  approaches: Approach[];
}

export function newApproachState(): ApproachState {
  return { touched: false, approaching: false, approaches: [] };
}

/**
 * One scan of the cell as the matcher sees it for one area: `touching` its polygon now, or
 * `entryMin` minutes to the predicted first contact (entryAhead; undefined when none is predicted
 * within the horizon, or the area is not among the candidates of the projected path); `heldBack` when
 * the cell is expected to end before that entry (EventProjection.outlives false). An APPROACHING goes
 * out when the entry is predicted within `leadMin`, is not held back and none is standing; a standing
 * one is cancelled only when no entry is predicted at all; a START answers it.
 */
export function approachStep(
  state: ApproachState,
  t: number,
  view: { touching: boolean; entryMin: number | undefined; heldBack?: boolean },
  leadMin = 30,
): void {
  if (state.touched) return;
  if (view.touching) {
    state.touched = true;
    state.approaching = false;
    return;
  }
  const within = view.entryMin !== undefined && view.entryMin > 0 && view.entryMin <= leadMin && view.heldBack !== true;
  if (state.approaching && view.entryMin === undefined) {
    state.approaches[state.approaches.length - 1]!.cancelledMs = t;
    state.approaching = false;
  } else if (!state.approaching && within) {
    state.approaches.push({ issuedMs: t });
    state.approaching = true;
  }
}

/** One cell and one area: the APPROACHING notices sent and where the cell truly was. */
export interface ApproachPair {
  approaches: readonly Approach[];
  contacts: readonly Contact[];
  /** The cell touched the area from the first moment it was a cell: no entry to detect. */
  touchingAtBirth: boolean;
  /** The cell's first record: an entry sooner than 5 min after it could not be warned of 5 min ahead. */
  firstRecordMs: number;
}

export interface ApproachSkill {
  issued: number;
  falseAlarms: number;
  /** Of the APPROACHING sent, the share whose cell did not enter the area within `verifyMin` (30 + 15) after the issue. */
  far: number;
  /** True first entries: the cell entering an area it had not touched before as a cell. */
  entries: number;
  detected: number;
  /** Of the true first entries, the share with an APPROACHING standing at the entry and issued at least `warnMin` (5) before it. */
  pod: number;
  /** ... counting only the entries at least `warnMin` after the cell's first record (a warning was possible at all). */
  warnableEntries: number;
  warnableDetected: number;
  podWarnable: number;
}

export function approachSkill(pairs: Iterable<ApproachPair>, verifyMin = 45, warnMin = 5): ApproachSkill {
  let issued = 0;
  let falseAlarms = 0;
  let entries = 0;
  let detected = 0;
  let warnableEntries = 0;
  let warnableDetected = 0;
  for (const pair of pairs) {
    for (const a of pair.approaches) {
      issued++;
      const entry = entryAfter(pair.contacts, a.issuedMs);
      if (entry === undefined || entry > a.issuedMs + verifyMin * MINUTE) falseAlarms++;
    }
    const first = pair.contacts[0];
    if (!first || pair.touchingAtBirth) continue;
    const entry = first.fromMs;
    const hit = pair.approaches.some((a) => a.issuedMs <= entry - warnMin * MINUTE && (a.cancelledMs === undefined || a.cancelledMs > entry));
    entries++;
    if (hit) detected++;
    if (entry >= pair.firstRecordMs + warnMin * MINUTE) {
      warnableEntries++;
      if (hit) warnableDetected++;
    }
  }
  return {
    issued,
    falseAlarms,
    far: issued === 0 ? Number.NaN : falseAlarms / issued,
    entries,
    detected,
    pod: entries === 0 ? Number.NaN : detected / entries,
    warnableEntries,
    warnableDetected,
    podWarnable: warnableEntries === 0 ? Number.NaN : warnableDetected / warnableEntries,
  };
}
