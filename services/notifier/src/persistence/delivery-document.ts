import type { Delivery } from '../domain/delivery.js';
import type { QueueEntry } from '../ports/delivery-store.js';

/**
 * `stateAttempt`: the attempt number after which the document's own state fields were last written
 * (see foldDelivery). Documents of the earlier design, kept current by updates, have none: their state
 * is as of their `attemptCount`.
 */
export type DeliveryDocument = Omit<Delivery, 'id'> & {
  _id: string;
  stateAttempt?: number;
  /** Manual redeliveries counted against the per-delivery cap (claimManualRedelivery); absent: none yet. */
  manualRedeliveries?: number;
};

/**
 * `nextAttempt` is the number the next claim takes. Entries of the earlier design stored the last
 * claimed number as `attempt` instead.
 */
export type QueueDocument = Omit<QueueEntry, 'deliveryId' | 'attempt'> & { _id: string; nextAttempt?: number; attempt?: number };

export function toDeliveryDocument(delivery: Delivery): DeliveryDocument {
  const { id, ...rest } = delivery;
  return { _id: id, ...rest, stateAttempt: 0 };
}

export function storedDelivery(doc: DeliveryDocument): Delivery & { stateAttempt: number } {
  const { _id, stateAttempt, manualRedeliveries: _counted, ...rest } = doc;
  return { id: _id, ...rest, attempts: rest.attempts ?? [], stateAttempt: stateAttempt ?? rest.attemptCount };
}

export function toQueueDocument(entry: QueueEntry): QueueDocument {
  const { deliveryId, attempt, ...rest } = entry;
  return { _id: deliveryId, ...rest, nextAttempt: attempt };
}

export function fromQueueDocument(doc: QueueDocument): QueueEntry {
  const { _id, nextAttempt, attempt, ...rest } = doc;
  delete (rest as { claimToken?: unknown }).claimToken;
  return { deliveryId: _id, ...rest, attempt: nextAttempt ?? (attempt ?? 0) + 1 };
}
