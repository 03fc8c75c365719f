import type { Db } from 'mongodb';
import type { Logger } from '@stormhook/logger';
import { ensureDatabaseIndexes, type DatabaseIndexesResult, type IndexSpec } from '@stormhook/mongo';

/** Collection names of the notifier's database. Renaming one needs a migration. */
export const COLLECTIONS = {
  endpoints: 'webhook_endpoints',
  /**
   * `{_id: accountId, endpointId}`: finds an account's endpoint by `_id` lookups only. FerretDB 1.x on
   * SQLite scans the whole endpoint collection for `{accountId}`, about a second at storm load with
   * 1,000 endpoints, and every registration and every new account's first delivery asked it.
   */
  endpointAccounts: 'webhook_endpoint_accounts',
  /**
   * `{_id: '000…n', endpointId, accountId, at}`: every endpoint write, numbered 1, 2, 3... by unique inserts
   * (the number as zero-padded text: FerretDB 1.x indexes text `_id`s only);
   * each instance follows it to keep its endpoints in memory (MongoEndpointChangeLog).
   */
  endpointChanges: 'webhook_endpoint_changes',
  deliveries: 'deliveries',
  queue: 'delivery_queue',
  /** Append-only: one document per attempt (`<deliveryId>#<attemptNumber>`) with the state it left. */
  attempts: 'delivery_attempts',
  /** One document per batch of fresh deliveries whose first attempt an instance holds in memory. */
  holds: 'delivery_holds',
  /** Append-only claims: one document per attempt number taken (`<deliveryId>#<attemptNumber>`). */
  leases: 'delivery_leases',
  messages: 'messages',
  /** SMS and e-mail waiting to be sent (payload encrypted); removed once sent or given up. */
  messageOutbox: 'message_outbox',
  /** Append-only claims of message attempts (`<messageId>#<attemptNumber>`). */
  messageLeases: 'message_leases',
  /**
   * Webhook health statistics: one document per (account, writer), `<accountId>|<writerId>`, written
   * by that notifier process only (delivery/webhook-stats-recorder.ts).
   */
  webhookStats: 'webhook_stats',
  /** One document per notifier process that wrote statistics, with the time of its last write. */
  webhookStatWriters: 'webhook_stat_writers',
  /** Recovery jobs (POST /v1/alarms/webhooks/recover), by job id. */
  recoveryJobs: 'recovery_jobs',
  /** Development-only settings generated at first start (the credential key when none is configured). */
  devSettings: 'dev_settings',
} as const;

/**
 * Deliveries are keyed by notification id (`_id`), which is the unique index that makes a replayed
 * AlarmTriggered find its chain instead of starting a second one. The other indexes serve MongoDB;
 * FerretDB 1.x on SQLite pushes down only `{_id: value}` filters, which is why the hot paths use
 * nothing else on the deliveries collection and scan only the small work queue, and why the
 * non-unique ones are not made there at all (ensureIndexes with the server's traits): on the city
 * storm each delivery and attempt paid a random page write per such index in SQLite's WAL.
 */
export const INDEXES: Readonly<Record<keyof typeof COLLECTIONS, readonly IndexSpec[]>> = {
  endpoints: [{ name: 'accountId_unique', key: { accountId: 1 }, unique: true }],
  endpointAccounts: [],
  endpointChanges: [],
  // No index on failureEventPending any more: no query ever used it (the owed DeliveryFailed events are
  // found by their queue markers), and packed documents keep the flag inside `packed`.
  deliveries: [{ name: 'account_created', key: { accountId: 1, createdAt: -1 } }],
  queue: [{ name: 'due', key: { dueAt: 1 } }],
  attempts: [
    { name: 'delivery', key: { deliveryId: 1 } },
    { name: 'account', key: { accountId: 1 } },
  ],
  leases: [],
  holds: [],
  messages: [],
  messageOutbox: [{ name: 'due', key: { nextAttemptAt: 1 } }],
  messageLeases: [],
  devSettings: [],
  webhookStats: [{ name: 'writer', key: { writerId: 1 } }],
  webhookStatWriters: [],
  recoveryJobs: [],
};

/** Makes the indexes the server will use; answers the server's traits and the indexes it left out. */
export function ensureNotifierIndexes(db: Db, logger?: Logger): Promise<DatabaseIndexesResult> {
  return ensureDatabaseIndexes(
    db,
    (Object.entries(COLLECTIONS) as [keyof typeof COLLECTIONS, string][]).map(([key, name]) => [name, INDEXES[key]] as const),
    logger ? { logger } : {},
  );
}
