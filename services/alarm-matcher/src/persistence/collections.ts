import type { Db } from 'mongodb';
import { ensureIndexes } from '@stormhook/mongo';

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

/** Creates the indexes every query and every uniqueness rule relies on; safe at every start. */
export async function ensureAlarmIndexes(db: Db): Promise<void> {
  await ensureIndexes(db.collection(COLLECTIONS.registrations), [
    // "One registration per area per recipientId" (per account and kind) holds under concurrency only through this index.
    { name: 'registration_area_unique', key: { accountId: 1, kind: 1, recipientId: 1, areaKey: 1 }, unique: true },
    { name: 'registration_account_kind_created', key: { accountId: 1, kind: 1, createdAtMs: 1 } },
    { name: 'registration_kind_created', key: { kind: 1, createdAtMs: 1 } },
  ]);
  await ensureIndexes(db.collection(COLLECTIONS.notifications), [{ name: 'notification_claimed_at', key: { claimedAtMs: 1 } }]);
  await ensureIndexes(db.collection(COLLECTIONS.trackedStates), [
    { name: 'tracked_active_expiry', key: { activeCount: 1, nextExpiryMs: 1 } },
    { name: 'tracked_active_updated', key: { activeCount: 1, updatedAtMs: 1 } },
  ]);
  await ensureIndexes(db.collection(COLLECTIONS.lightningActivity), [{ name: 'lightning_last_strike', key: { lastStrikeMs: 1 } }]);
  await ensureIndexes(db.collection(COLLECTIONS.forecastCells), [
    { name: 'forecast_cell_issue', key: { issueMs: 1 } },
    { name: 'forecast_cell_lng', key: { lng: 1 } },
    { name: 'forecast_cell_lat', key: { lat: 1 } },
  ]);
  await ensureIndexes(db.collection(COLLECTIONS.forecastSlots), [{ name: 'forecast_slot', key: { slotId: 1 } }]);
  await ensureIndexes(db.collection(COLLECTIONS.jobLocks), [{ name: 'job_lock_locked_at', key: { lockedAtMs: 1 } }]);
}
