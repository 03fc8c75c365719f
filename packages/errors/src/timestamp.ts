/**
 * The ErrorResponse `timestamp`: a local date-time with nine fractional digits and no zone, the
 * form the incumbent's clients parse (`2025-04-14T16:58:10.414972912`).
 *
 * Date only has milliseconds, so the nanoseconds come from the monotonic high-resolution clock,
 * anchored once to the wall clock: the digits are real and never go backwards within a process.
 */

const NANOS_PER_MILLI = 1_000_000n;
const NANOS_PER_SECOND = 1_000_000_000n;
/** Re-anchor when the wall clock was stepped (NTP, manual change) by more than this. */
const MAX_DRIFT_NANOS = 1_000n * NANOS_PER_MILLI;

export interface NanoClock {
  /** Nanoseconds since the Unix epoch. */
  nowNanos(): bigint;
}

/** A clock whose readings are wall-clock anchored and strictly increasing. */
export function createNanoClock(wallMillis: () => number = Date.now, monotonicNanos: () => bigint = process.hrtime.bigint): NanoClock {
  let anchorEpochNanos = BigInt(wallMillis()) * NANOS_PER_MILLI;
  let anchorMonotonic = monotonicNanos();
  let last = 0n;
  return {
    nowNanos(): bigint {
      let candidate = anchorEpochNanos + (monotonicNanos() - anchorMonotonic);
      const wallNanos = BigInt(wallMillis()) * NANOS_PER_MILLI;
      const drift = candidate - wallNanos;
      if (drift > MAX_DRIFT_NANOS || drift < -MAX_DRIFT_NANOS) {
        anchorEpochNanos = wallNanos;
        anchorMonotonic = monotonicNanos();
        candidate = wallNanos;
      }
      // Two readings within the same nanosecond (or after a backwards re-anchor) still increase.
      last = candidate > last ? candidate : last + 1n;
      return last;
    },
  };
}

const pad = (value: number, width: number): string => String(value).padStart(width, '0');

/** Formats epoch nanoseconds as `yyyy-MM-ddTHH:mm:ss.nnnnnnnnn` in the process-local timezone. */
export function formatLocalTimestamp(epochNanos: bigint): string {
  // Floor division, so instants before 1970 still get a non-negative fraction.
  let seconds = epochNanos / NANOS_PER_SECOND;
  let fraction = epochNanos % NANOS_PER_SECOND;
  if (fraction < 0n) {
    fraction += NANOS_PER_SECOND;
    seconds -= 1n;
  }
  const date = new Date(Number(seconds) * 1000);
  return (
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1, 2)}-${pad(date.getDate(), 2)}` +
    `T${pad(date.getHours(), 2)}:${pad(date.getMinutes(), 2)}:${pad(date.getSeconds(), 2)}` +
    `.${fraction.toString().padStart(9, '0')}`
  );
}

const processClock = createNanoClock();

/** The current local timestamp of this process, nanosecond precision. */
export function localTimestamp(clock: NanoClock = processClock): string {
  return formatLocalTimestamp(clock.nowNanos());
}
