import type { Logger } from '@stormhook/logger';
import type { LatestForecastCells } from '../forecast/latest-cells.js';
import type { Clock } from '../ports/clock.js';
import type { ForecastStore } from '../ports/forecast-store.js';
import type { TrackedStateStore } from '../ports/tracked-state-store.js';

/** No TTL indexes on the embedded database: old records are deleted here (deletes are safe under concurrency). */
export class Housekeeping {
  constructor(
    private readonly deps: {
      claims: { purgeClaimedBefore(ms: number): Promise<number> };
      locks: { purgeBefore(ms: number): Promise<number> };
      states: TrackedStateStore;
      forecasts: ForecastStore;
      /** This instance's cells in memory, pruned by the same rule as the stored ones. */
      cells: LatestForecastCells;
      clock: Clock;
      logger: Logger;
      notificationRetentionMs: number;
      forecastRetentionMs: number;
    },
  ) {}

  async run(): Promise<{ claims: number; states: number; cells: number }> {
    const { claims, states, forecasts, clock, notificationRetentionMs, forecastRetentionMs } = this.deps;
    const now = clock.now();
    const purgedClaims = await claims.purgeClaimedBefore(now - notificationRetentionMs);
    await this.deps.locks.purgeBefore(now - 24 * 3_600_000);
    // Ended lifecycle states only matter against replays; claims cover those for longer.
    const purgedStates = await states.purgeEndedBefore(now - notificationRetentionMs);
    const newest = await forecasts.newestIssueMs();
    const purgedCells = newest === undefined ? 0 : await forecasts.purgeIssuedBefore(newest - forecastRetentionMs);
    const newestHeld = this.deps.cells.newestIssueMs();
    if (newestHeld !== undefined) this.deps.cells.pruneIssuedBefore(newestHeld - forecastRetentionMs);
    const result = { claims: purgedClaims, states: purgedStates, cells: purgedCells };
    this.deps.logger.debug(result, 'alarm-matcher housekeeping done');
    return result;
  }
}
