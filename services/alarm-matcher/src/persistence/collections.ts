import type { Db } from 'mongodb';
import type { Logger } from '@stormhook/logger';
import { ensureDatabaseIndexes, type DatabaseIndexesResult, type IndexSpec } from '@stormhook/mongo';

/** Collections of the alarm-matcher database. Renaming one needs a migration. */
export const COLLECTIONS = {
  registrations: 'registrations',
  notifications: 'notifications',
  trackedStates: 'tracked_states',
  lightningActivity: 'lightning_activity',
  /** Episodes of strikes in the approach rings (filter lightning.approachRadius). */
  lightningApproach: 'lightning_approach',
  forecastCells: 'forecast_cells',
  forecastSlots: 'forecast_slots',
  jobLocks: 'job_locks',
} as const;

/**
 * The indexes every query and every uniqueness rule relies on. The non-unique ones serve MongoDB;
 * FerretDB 1.x on SQLite answers those filters by scanning whatever is indexed, yet keeps each index
 * current on every write (a notification claim per callback: 330,000 in the city storm), so they are
 * not made there (ensureIndexes with the server's traits). Unique indexes are always made.
 */
const INDEXES: ReadonlyArray<[keyof typeof COLLECTIONS, readonly IndexSpec[]]> = [
  [
    'registrations',
    [
      // "One registration per area per recipientId" (per account and kind) holds under concurrency only through this index.
      { name: 'registration_area_unique', key: { accountId: 1, kind: 1, recipientId: 1, areaKey: 1 }, unique: true },
      { name: 'registration_account_kind_created', key: { accountId: 1, kind: 1, createdAtMs: 1 } },
      { name: 'registration_kind_created', key: { kind: 1, createdAtMs: 1 } },
    ],
  ],
  ['notifications', [{ name: 'notification_claimed_at', key: { claimedAtMs: 1 } }]],
  [
    'trackedStates',
    [
      { name: 'tracked_active_expiry', key: { activeCount: 1, nextExpiryMs: 1 } },
      { name: 'tracked_active_updated', key: { activeCount: 1, updatedAtMs: 1 } },
    ],
  ],
  ['lightningActivity', [{ name: 'lightning_last_strike', key: { lastStrikeMs: 1 } }]],
  [
    'forecastCells',
    [
      { name: 'forecast_cell_issue', key: { issueMs: 1 } },
      { name: 'forecast_cell_lng', key: { lng: 1 } },
      { name: 'forecast_cell_lat', key: { lat: 1 } },
    ],
  ],
  ['forecastSlots', [{ name: 'forecast_slot', key: { slotId: 1 } }]],
  ['jobLocks', [{ name: 'job_lock_locked_at', key: { lockedAtMs: 1 } }]],
];

/** Makes the indexes the server will use (safe at every start); answers its traits and what it left out. */
export function ensureAlarmIndexes(db: Db, logger?: Logger): Promise<DatabaseIndexesResult> {
  return ensureDatabaseIndexes(
    db,
    INDEXES.map(([key, specs]) => [COLLECTIONS[key], specs] as const),
    logger ? { logger } : {},
  );
}
