import type { Logger } from '@stormhook/logger';
import type { WeatherSinks } from './accept-weather.js';

export interface RetentionResult {
  precipitations: { entries: number; segments: number; days: number };
  thunderstorms: { entries: number; segments: number; days: number };
  forecastRuns: string[];
  /** Weather history chunks deleted (whole days past retention). */
  historyChunks: number;
}

/** The weather history's share of the periodic jobs (history/persistence/history-store.ts). */
export interface HistoryMaintenance {
  roll(): Promise<void>;
  expire(): Promise<number>;
}

/**
 * Retention (the embedded database has no TTL indexes): events whose time is older than
 * `maxAgeMs` leave the indexes, their index segments and whole payload days are deleted; forecast
 * runs superseded by a complete newer run of the same model, or entirely in the past, are
 * deleted. Idempotent, so an interrupted run is simply repeated next time.
 */
export async function purgeExpired(sinks: WeatherSinks, maxAgeMs: number, now: number, history?: HistoryMaintenance): Promise<RetentionResult> {
  const cutoff = now - maxAgeMs;
  const precipitations = await sinks.precipitations.purge(cutoff);
  const thunderstorms = await sinks.thunderstorms.purge(cutoff);
  const runs = new Set([...sinks.forecasts.superseded(), ...sinks.forecasts.expired(cutoff)].map((r) => r.runId));
  for (const runId of runs) {
    // Database first: a run deleted from memory but not from the database would come back at start.
    await sinks.forecastRepository.deleteRun(runId);
    sinks.forecasts.remove(runId);
  }
  const historyChunks = history ? await history.expire() : 0;
  return { precipitations, thunderstorms, forecastRuns: [...runs], historyChunks };
}

export interface Maintenance {
  stop(): Promise<void>;
  /** Runs retention now (tests, operators). */
  purgeNow(): Promise<RetentionResult>;
}

/**
 * The periodic jobs: retention every `purgeIntervalMs`, journal compaction (and the history's
 * compaction and merges, which decide themselves whether they are due) every `rollIntervalMs`.
 * One run at a time; failures are logged and retried at the next tick.
 */
export function startMaintenance(opts: {
  sinks: WeatherSinks;
  history?: HistoryMaintenance;
  maxAgeMs: number;
  purgeIntervalMs: number;
  rollIntervalMs: number;
  logger: Logger;
  now?: () => number;
}): Maintenance {
  const now = opts.now ?? Date.now;
  let running: Promise<unknown> = Promise.resolve();
  const serial = <T>(job: () => Promise<T>): Promise<T> => {
    const next = running.then(job, job);
    running = next.catch(() => undefined);
    return next;
  };
  const purge = () =>
    serial(async () => {
      const result = await purgeExpired(opts.sinks, opts.maxAgeMs, now(), opts.history);
      const removed = result.precipitations.entries + result.thunderstorms.entries + result.forecastRuns.length + result.historyChunks;
      if (removed > 0 || result.precipitations.days + result.thunderstorms.days > 0) opts.logger.info({ retention: result }, 'expired weather data purged');
      return result;
    });
  const roll = () =>
    serial(async () => {
      await opts.sinks.precipitations.roll();
      await opts.sinks.thunderstorms.roll();
      await opts.history?.roll();
    });
  const purgeTimer = setInterval(
    () => purge().catch((error: unknown) => opts.logger.error({ err: error }, 'retention run failed; retrying at the next tick')),
    opts.purgeIntervalMs,
  );
  const rollTimer = setInterval(
    () => roll().catch((error: unknown) => opts.logger.error({ err: error }, 'journal compaction failed; retrying at the next tick')),
    opts.rollIntervalMs,
  );
  purgeTimer.unref();
  rollTimer.unref();
  return {
    purgeNow: purge,
    async stop() {
      clearInterval(purgeTimer);
      clearInterval(rollTimer);
      await running;
    },
  };
}
