import type { Logger } from '@stormhook/logger';
import type { QuotaShares } from './quota-shares.js';

/** Ended windows are kept a day longer, so a clock a little behind on another instance still finds its counter. */
const GRACE_MS = 24 * 3600_000;

/** Deletes counters of ended windows on an interval (no TTL indexes on the embedded database). */
export function startQuotaHousekeeping(store: QuotaShares, logger: Logger, intervalMs: number): { stop(): void } {
  const timer = setInterval(() => {
    store.purgeEnded(new Date(Date.now() - GRACE_MS)).then(
      (deleted) => logger.debug({ deleted }, 'ended quota windows purged'),
      (error: unknown) => logger.warn({ err: error }, 'quota housekeeping failed; will retry'),
    );
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
