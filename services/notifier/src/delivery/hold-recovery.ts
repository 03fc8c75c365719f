import { OUTBOX_DUE_AT, type DeliveryStore, type Hold, type QueueEntry } from '../ports/delivery-store.js';

/**
 * Queues what a hold of a dead instance left unfinished and removes the hold; returns the entries it
 * queued. The held attempt 1 counts as made (it may have been sent), so a delivery without a recorded
 * attempt goes on with attempt 2, one with a recorded failure with its retry. Only inserts (a
 * duplicate key = queued already), so instances recovering the same hold at once queue each delivery
 * once, and a recovery cut short is simply done again.
 */
export async function recoverHold(store: DeliveryStore, hold: Hold, now: Date): Promise<QueueEntry[]> {
  const queued: QueueEntry[] = [];
  for (const held of hold.deliveries) {
    const delivery = await store.get(held.deliveryId);
    if (!delivery) continue;
    const base: QueueEntry = {
      deliveryId: delivery.id,
      accountId: delivery.accountId,
      endpointId: held.endpointId,
      dueAt: now,
      trigger: 'scheduled',
      single: false,
      attempt: Math.max(delivery.attemptCount, 1) + 1,
      manualAttempts: 0,
      outbox: false,
      leaseOwner: null,
      leaseUntil: null,
    };
    if (delivery.status === 'pending') {
      const entry = { ...base, dueAt: delivery.attemptCount > 0 && delivery.nextAttemptAt ? delivery.nextAttemptAt : now };
      await store.enqueue(entry);
      queued.push(entry);
    } else if (delivery.status === 'dead' && delivery.failureEventPending) {
      await store.enqueue({ ...base, outbox: true, dueAt: OUTBOX_DUE_AT });
    }
  }
  await store.releaseHold(hold.id);
  return queued;
}
