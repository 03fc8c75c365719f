import type { Logger } from '@stormhook/logger';
import type { SeenStore } from '../dedup/seen-store.js';

/** Margin on top of the maximum age, so an entry is never purged while its record could still be accepted. */
const MARGIN_MS = 60 * 60_000;

export interface PurgeJob {
  /** One purge now; resolves to the number of entries removed. */
  runOnce(): Promise<number>;
  stop(): void;
}

/**
 * Periodically forgets de-duplication entries whose record would now be rejected as too old anyway
 * (the embedded database has no TTL indexes, so this replaces one).
 */
export function startPurgeJob(deps: { store: SeenStore; maxAgeMs: number; intervalMs: number; logger: Logger; clock?: () => number }): PurgeJob {
  const clock = deps.clock ?? Date.now;
  const runOnce = async (): Promise<number> => {
    const removed = await deps.store.purgeBefore(clock() - deps.maxAgeMs - MARGIN_MS);
    if (removed > 0) deps.logger.info({ removed }, 'purged old de-duplication entries');
    return removed;
  };
  const timer = setInterval(() => {
    runOnce().catch((error: unknown) => deps.logger.warn({ err: error }, 'purge of de-duplication entries failed; next round retries'));
  }, deps.intervalMs);
  timer.unref();
  return { runOnce, stop: () => clearInterval(timer) };
}
