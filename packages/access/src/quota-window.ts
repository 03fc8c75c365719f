import type { ServiceLimit } from './subscription.js';

/**
 * The counting window a call falls into. Windows are UTC calendar periods (a day from 00:00 UTC, an
 * ISO week from Monday, a month from the 1st, a year from 1 January) so that a caller can predict
 * the reset; `interval` periods make one window, counted from the period the subscription was
 * granted in. QUOTA never resets: its one window is the life of the grant.
 */
export interface QuotaWindow {
  start: Date;
  /** Exclusive: the moment the counter starts again. */
  end: Date;
}

/** Year 9999: the end of a window that never ends, still a valid date everywhere. */
export const NEVER = new Date(253_402_300_799_000);

const DAY_MS = 86_400_000;
/** 1970-01-01 was a Thursday: ISO weeks start three days earlier, on Monday 1969-12-29. */
const MONDAY_OFFSET_DAYS = 3;

type Periodic = Exclude<ServiceLimit['recurrence'], 'QUOTA'>;

function periodIndex(recurrence: Periodic, at: Date): number {
  const days = Math.floor(at.getTime() / DAY_MS);
  switch (recurrence) {
    case 'DAILY':
      return days;
    case 'WEEKLY':
      return Math.floor((days + MONDAY_OFFSET_DAYS) / 7);
    case 'MONTHLY':
      return (at.getUTCFullYear() - 1970) * 12 + at.getUTCMonth();
    case 'YEARLY':
      return at.getUTCFullYear() - 1970;
  }
}

function periodStart(recurrence: Periodic, index: number): Date {
  switch (recurrence) {
    case 'DAILY':
      return new Date(index * DAY_MS);
    case 'WEEKLY':
      return new Date((index * 7 - MONDAY_OFFSET_DAYS) * DAY_MS);
    case 'MONTHLY':
      return new Date(Date.UTC(1970 + Math.floor(index / 12), ((index % 12) + 12) % 12, 1));
    case 'YEARLY':
      return new Date(Date.UTC(1970 + index, 0, 1));
  }
}

/**
 * The window of `limit` containing `now`, for a subscription granted at `grantedAt` (absent: the
 * epoch) and expiring at `expiresAt` (absent: never).
 */
export function quotaWindow(limit: Pick<ServiceLimit, 'recurrence' | 'interval'>, now: Date, grantedAt?: Date, expiresAt?: Date): QuotaWindow {
  if (limit.recurrence === 'QUOTA') return { start: grantedAt ?? new Date(0), end: expiresAt ?? NEVER };
  const interval = Math.max(1, Math.floor(limit.interval));
  const anchor = periodIndex(limit.recurrence, grantedAt ?? new Date(0));
  const current = periodIndex(limit.recurrence, now);
  const first = anchor + Math.floor((current - anchor) / interval) * interval;
  return { start: periodStart(limit.recurrence, first), end: periodStart(limit.recurrence, first + interval) };
}
