import { COLLECTIONS } from '../persistence/collections.js';

/** One collection the janitor trims: documents whose `field` is older than the retention are deleted. */
export interface RetentionRule {
  collection: string;
  field: string;
  retention: 'deliveries' | 'messages';
}

/**
 * What is trimmed, by which date. FerretDB 1.24 has no TTL indexes, so a janitor deletes instead (on
 * MongoDB the same code works; TTL indexes would do it there without it). Not here: the delivery
 * queue, holds and the message outbox, which hold work not done yet and empty themselves.
 */
export const RETENTION_RULES: readonly RetentionRule[] = [
  { collection: COLLECTIONS.deliveries, field: 'createdAt', retention: 'deliveries' },
  { collection: COLLECTIONS.attempts, field: 'startedAt', retention: 'deliveries' },
  { collection: COLLECTIONS.leases, field: 'claimedAt', retention: 'deliveries' },
  { collection: COLLECTIONS.endpointChanges, field: 'at', retention: 'deliveries' },
  { collection: COLLECTIONS.recoveryJobs, field: 'createdAt', retention: 'deliveries' },
  { collection: COLLECTIONS.messages, field: 'updatedAt', retention: 'messages' },
  { collection: COLLECTIONS.messageLeases, field: 'claimedAt', retention: 'messages' },
];
