import type { Delivery } from '../domain/delivery.js';
import type { QueueEntry } from '../ports/delivery-store.js';
import { packFields, unpackFields } from './packed-fields.js';

/**
 * A stored delivery. Documents written since the packed form keep top-level `_id` and what the
 * queries use (`accountId`, `registrationId`, `callbackType`, `createdAt`), the `payload` (which the
 * list leaves out), and everything else in `packed` (packed-fields.ts: 7 fields where there were 27).
 * A field written top-level later (the rare paths' `$set`, see writeState) wins over its packed
 * value. Documents of the earlier form have every field top-level and no `packed`; both are read.
 *
 * `stateAttempt`: the attempt number after which the document's own state fields were last written
 * (see foldDelivery). Documents of the earliest design, kept current by updates, have none: their
 * state is as of their `attemptCount`.
 */
export type DeliveryDocument = Partial<Omit<Delivery, 'id'>> &
  Pick<Delivery, 'accountId' | 'registrationId' | 'createdAt'> & {
    _id: string;
    packed?: string;
    stateAttempt?: number;
    /** Manual redeliveries counted against the per-delivery cap (claimManualRedelivery); absent: none yet. */
    manualRedeliveries?: number;
  };

/** The keys whose values are Dates, in a packed delivery and its (earliest-design) embedded attempts. */
const DELIVERY_DATES: ReadonlySet<string> = new Set(['occurredAt', 'triggeredAt', 'nextAttemptAt', 'updatedAt', 'finishedAt', 'startedAt']);

/**
 * `nextAttempt` is the number the next claim takes. Entries of the earlier design stored the last
 * claimed number as `attempt` instead.
 */
export type QueueDocument = Omit<QueueEntry, 'deliveryId' | 'attempt'> & { _id: string; nextAttempt?: number; attempt?: number };

export function toDeliveryDocument(delivery: Delivery): DeliveryDocument {
  const { id, accountId, registrationId, callbackType, createdAt, payload, attempts, ...rest } = delivery;
  return {
    _id: id,
    accountId,
    registrationId,
    ...(callbackType ? { callbackType } : {}),
    createdAt,
    payload,
    packed: packFields({ ...rest, stateAttempt: 0, ...(attempts.length > 0 ? { attempts } : {}) }),
  };
}

/**
 * The delivery a document holds, packed fields under the top-level ones. A projected read gives a
 * partial document and gets the fields it asked for (plus `packed`, when it asked for that).
 */
export function storedDelivery(doc: DeliveryDocument): Delivery & { stateAttempt: number } {
  const { _id, packed, manualRedeliveries: _counted, ...top } = doc;
  const fields = (packed ? { ...unpackFields<Partial<DeliveryDocument>>(packed, DELIVERY_DATES), ...top } : top) as Omit<DeliveryDocument, '_id'>;
  const { stateAttempt, ...rest } = fields;
  const delivery = { id: _id, ...rest, attempts: rest.attempts ?? [] } as Delivery;
  return { ...delivery, stateAttempt: stateAttempt ?? delivery.attemptCount };
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
