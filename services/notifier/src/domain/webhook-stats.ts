import { failureKey, parseFailureKey, type ClassifiedFailure, type FailureClass } from './failure-class.js';
import { addInto, AGE_BOUNDS_MS, emptyHistogram, histogramCount, LATENCY_BOUNDS_MS, observe, quantile, type Histogram } from './histogram.js';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
/** The longest window health reports; older buckets are dropped. */
export const WEEK_MS = 7 * 24 * HOUR_MS;

/** One attempt kept as the example of its failure group. */
export interface FailureExample {
  notificationId: string;
  attemptNumber: number;
  atEpochMs: number;
  responseStatus: number | null;
  error: string;
}

export interface FailureGroup {
  count: number;
  firstEpochMs: number;
  lastEpochMs: number;
  /** The latest failure of the group. */
  example: FailureExample;
}

/** The attempts of one account that ended within one minute or one hour. */
export interface StatsBucket {
  start: number;
  attempts: number;
  succeeded: number;
  /** Receiver round trip of every attempt that got an answer or timed out. */
  latency: Histogram;
  /** Weather age on receipt (receipt minus the event's own time) of successful attempts. */
  age: Histogram;
  /** By failure key (failure-class.ts); kept in hour buckets only. */
  failures: Record<string, FailureGroup>;
}

/**
 * What one notifier instance saw of one account's webhook: minute buckets for the last hour, hour
 * buckets for the last 7 days, and running counts. Instances keep their own and the health answer
 * sums them (mergeStats), so no write ever needs another instance's data or an atomic increment.
 */
export interface AccountStats {
  accountId: string;
  minutes: StatsBucket[];
  hours: StatsBucket[];
  /** Deliveries this instance opened (accepted, reopened for a redelivery); never decreases. */
  opened: number;
  /** Deliveries this instance finished (succeeded or dead); waiting = opened - closed over all instances. */
  closed: number;
  lastSuccessAt: number | null;
  /** Failed attempts since this instance's last success, and when the first of them ended. */
  failureRun: { since: number; count: number } | null;
  /** The earliest retry this instance scheduled that was still due in the future when it last wrote. */
  nextRetryAt: number | null;
  /** Attempts of recovery jobs this instance made, by job id (a job's progress sums every instance's). */
  recoveries: Record<string, RecoveryProgress>;
}

export interface RecoveryProgress {
  sent: number;
  failed: number;
  /** The last attempt, epoch milliseconds: a job's counts go a week after it. */
  lastAt: number;
}

/** One attempt as the statistics need it. */
export interface RecordedAttempt {
  /** When it ended: the receipt, for a success. */
  at: number;
  durationMs: number;
  succeeded: boolean;
  /** Set for a failure. */
  failure?: ClassifiedFailure | undefined;
  example: Omit<FailureExample, 'atEpochMs'>;
  /** For a success: receipt minus the time of the weather the callback carries. */
  weatherAgeMs?: number | undefined;
}

export const emptyStats = (accountId: string): AccountStats => ({
  accountId,
  minutes: [],
  hours: [],
  opened: 0,
  closed: 0,
  lastSuccessAt: null,
  failureRun: null,
  nextRetryAt: null,
  recoveries: {},
});

export function recordRecovery(stats: AccountStats, jobId: string, succeeded: boolean, at: number): void {
  const progress = (stats.recoveries[jobId] ??= { sent: 0, failed: 0, lastAt: at });
  if (succeeded) progress.sent += 1;
  else progress.failed += 1;
  progress.lastAt = Math.max(progress.lastAt, at);
}

const emptyBucket = (start: number): StatsBucket => ({ start, attempts: 0, succeeded: 0, latency: emptyHistogram(), age: emptyHistogram(), failures: {} });

/** The bucket starting at `start`, created in order (attempts arrive nearly in time order: search from the end). */
function bucketAt(buckets: StatsBucket[], start: number): StatsBucket {
  let i = buckets.length - 1;
  while (i >= 0 && (buckets[i] as StatsBucket).start > start) i--;
  const found = buckets[i];
  if (found && found.start === start) return found;
  const created = emptyBucket(start);
  buckets.splice(i + 1, 0, created);
  return created;
}

function addFailure(failures: Record<string, FailureGroup>, key: string, group: FailureGroup): void {
  const known = failures[key];
  if (!known) {
    failures[key] = { ...group, example: { ...group.example } };
    return;
  }
  known.count += group.count;
  known.firstEpochMs = Math.min(known.firstEpochMs, group.firstEpochMs);
  if (group.lastEpochMs >= known.lastEpochMs) {
    known.lastEpochMs = group.lastEpochMs;
    known.example = { ...group.example };
  }
}

export function recordAttempt(stats: AccountStats, attempt: RecordedAttempt): void {
  for (const bucket of [bucketAt(stats.minutes, attempt.at - (attempt.at % MINUTE_MS)), bucketAt(stats.hours, attempt.at - (attempt.at % HOUR_MS))]) {
    bucket.attempts += 1;
    observe(bucket.latency, LATENCY_BOUNDS_MS, attempt.durationMs);
    if (attempt.succeeded) {
      bucket.succeeded += 1;
      if (attempt.weatherAgeMs !== undefined) observe(bucket.age, AGE_BOUNDS_MS, Math.max(0, attempt.weatherAgeMs));
    }
  }
  if (attempt.succeeded) {
    stats.lastSuccessAt = Math.max(stats.lastSuccessAt ?? 0, attempt.at);
    stats.failureRun = null;
    return;
  }
  const failure = attempt.failure ?? { failureClass: 'CONNECTION_ERROR', status: null };
  const hour = bucketAt(stats.hours, attempt.at - (attempt.at % HOUR_MS));
  addFailure(hour.failures, failureKey(failure), {
    count: 1,
    firstEpochMs: attempt.at,
    lastEpochMs: attempt.at,
    example: { ...attempt.example, atEpochMs: attempt.at },
  });
  stats.failureRun = stats.failureRun ? { since: stats.failureRun.since, count: stats.failureRun.count + 1 } : { since: attempt.at, count: 1 };
}

/** Drops buckets no window reaches any more; true when something was dropped. */
export function prune(stats: AccountStats, now: number): boolean {
  const before = stats.minutes.length + stats.hours.length;
  stats.minutes = stats.minutes.filter((b) => b.start + MINUTE_MS > now - HOUR_MS);
  stats.hours = stats.hours.filter((b) => b.start + HOUR_MS > now - WEEK_MS);
  let dropped = false;
  for (const [jobId, progress] of Object.entries(stats.recoveries ?? {})) {
    if (progress.lastAt > now - WEEK_MS) continue;
    delete stats.recoveries[jobId];
    dropped = true;
  }
  return dropped || stats.minutes.length + stats.hours.length !== before;
}

function mergeBuckets(lists: StatsBucket[][]): StatsBucket[] {
  const byStart = new Map<number, StatsBucket>();
  for (const bucket of lists.flat()) {
    const target = byStart.get(bucket.start) ?? emptyBucket(bucket.start);
    byStart.set(bucket.start, target);
    target.attempts += bucket.attempts;
    target.succeeded += bucket.succeeded;
    addInto(target.latency, bucket.latency);
    addInto(target.age, bucket.age);
    for (const [key, group] of Object.entries(bucket.failures)) addFailure(target.failures, key, group);
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}

/**
 * The sum of several instances' statistics of one account. The failure run is the failures that
 * followed the latest success anywhere: exact with one instance; with several, an instance whose own
 * run began before another's later success counts its whole run (the run's start is the later one).
 */
export function mergeStats(accountId: string, all: readonly AccountStats[], now: number): AccountStats {
  const lastSuccessAt = all.reduce<number | null>(
    (latest, s) => (s.lastSuccessAt !== null && (latest === null || s.lastSuccessAt > latest) ? s.lastSuccessAt : latest),
    null,
  );
  const runs = all.flatMap((s) => (s.failureRun ? [s.failureRun] : []));
  const failureRun =
    runs.length === 0 ? null : { since: Math.min(...runs.map((r) => Math.max(r.since, lastSuccessAt ?? 0))), count: runs.reduce((n, r) => n + r.count, 0) };
  // A writer's next retry may have come due since it wrote: only those still ahead count.
  const retries = all.flatMap((s) => (s.nextRetryAt !== null && s.nextRetryAt > now ? [s.nextRetryAt] : []));
  return {
    accountId,
    minutes: mergeBuckets(all.map((s) => s.minutes)),
    hours: mergeBuckets(all.map((s) => s.hours)),
    opened: all.reduce((n, s) => n + s.opened, 0),
    closed: all.reduce((n, s) => n + s.closed, 0),
    lastSuccessAt,
    failureRun,
    nextRetryAt: retries.length === 0 ? null : Math.min(...retries),
    recoveries: mergeRecoveries(all),
  };
}

function mergeRecoveries(all: readonly AccountStats[]): Record<string, RecoveryProgress> {
  const merged: Record<string, RecoveryProgress> = {};
  // Documents written before recoveries were counted have none.
  for (const [jobId, progress] of all.flatMap((s) => Object.entries(s.recoveries ?? {}))) {
    const target = (merged[jobId] ??= { sent: 0, failed: 0, lastAt: progress.lastAt });
    target.sent += progress.sent;
    target.failed += progress.failed;
    target.lastAt = Math.max(target.lastAt, progress.lastAt);
  }
  return merged;
}

export interface WindowFigures {
  attempts: number;
  succeeded: number;
  failed: number;
  /** succeeded / attempts; null without attempts. */
  successRate: number | null;
  latencyMs: { p50: number | null; p95: number | null; p99: number | null };
  weatherAgeMs: { p50: number | null; p99: number | null };
}

export interface FailureGroupFigures extends FailureGroup {
  failureClass: FailureClass;
  status: number | null;
}

export interface HealthFigures {
  lastHour: WindowFigures;
  last24Hours: WindowFigures;
  last7Days: WindowFigures;
  /** Over the last 7 days, most frequent first. */
  failures: FailureGroupFigures[];
  failuresInRow: number;
  lastSuccessAt: number | null;
  /** Deliveries accepted and not yet finished (succeeded or dead). */
  waiting: number;
  /** The earliest scheduled retry still in the future; null when none is known. */
  nextRetryAt: number | null;
}

function windowFigures(buckets: readonly StatsBucket[]): WindowFigures {
  const latency = emptyHistogram();
  const age = emptyHistogram();
  let attempts = 0;
  let succeeded = 0;
  for (const bucket of buckets) {
    attempts += bucket.attempts;
    succeeded += bucket.succeeded;
    addInto(latency, bucket.latency);
    addInto(age, bucket.age);
  }
  return {
    attempts,
    succeeded,
    failed: attempts - succeeded,
    successRate: attempts === 0 ? null : succeeded / attempts,
    latencyMs: {
      p50: quantile(latency, LATENCY_BOUNDS_MS, 0.5),
      p95: quantile(latency, LATENCY_BOUNDS_MS, 0.95),
      p99: quantile(latency, LATENCY_BOUNDS_MS, 0.99),
    },
    weatherAgeMs: histogramCount(age) === 0 ? { p50: null, p99: null } : { p50: quantile(age, AGE_BOUNDS_MS, 0.5), p99: quantile(age, AGE_BOUNDS_MS, 0.99) },
  };
}

/**
 * The figures of the health answer at `now`. Windows are whole buckets: the last hour is the 60
 * minute buckets that overlap it, the last 24 hours and 7 days the hour buckets that overlap them
 * (so they reach back up to one bucket further than their name).
 */
export function healthFigures(stats: AccountStats, now: number): HealthFigures {
  const hours = (span: number): StatsBucket[] => stats.hours.filter((b) => b.start + HOUR_MS > now - span && b.start <= now);
  const week = hours(WEEK_MS);
  const failures = mergeBuckets([week]).flatMap((b) => Object.entries(b.failures));
  const grouped: Record<string, FailureGroup> = {};
  for (const [key, group] of failures) addFailure(grouped, key, group);
  return {
    lastHour: windowFigures(stats.minutes.filter((b) => b.start + MINUTE_MS > now - HOUR_MS && b.start <= now)),
    last24Hours: windowFigures(hours(24 * HOUR_MS)),
    last7Days: windowFigures(week),
    failures: Object.entries(grouped)
      .flatMap(([key, group]) => {
        const parsed = parseFailureKey(key);
        return parsed ? [{ ...parsed, ...group }] : [];
      })
      .sort((a, b) => b.count - a.count || b.lastEpochMs - a.lastEpochMs),
    failuresInRow: stats.failureRun?.count ?? 0,
    lastSuccessAt: stats.lastSuccessAt,
    waiting: Math.max(0, stats.opened - stats.closed),
    nextRetryAt: stats.nextRetryAt !== null && stats.nextRetryAt > now ? stats.nextRetryAt : null,
  };
}
