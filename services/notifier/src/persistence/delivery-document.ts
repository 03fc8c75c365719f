import type { Delivery } from '../domain/delivery.js';
import type { QueueEntry } from '../ports/delivery-store.js';

export type DeliveryDocument = Omit<Delivery, 'id'> & { _id: string };
export type QueueDocument = Omit<QueueEntry, 'deliveryId'> & { _id: string; claimToken?: string | null };

export function toDeliveryDocument(delivery: Delivery): DeliveryDocument {
  const { id, ...rest } = delivery;
  return { _id: id, ...rest };
}

export function fromDeliveryDocument(doc: DeliveryDocument): Delivery {
  const { _id, ...rest } = doc;
  return { id: _id, ...rest, attempts: rest.attempts ?? [] };
}

export function toQueueDocument(entry: QueueEntry): QueueDocument {
  const { deliveryId, ...rest } = entry;
  return { _id: deliveryId, ...rest, claimToken: null };
}

export function fromQueueDocument(doc: QueueDocument): QueueEntry {
  const { _id, claimToken: _token, ...rest } = doc;
  return { deliveryId: _id, ...rest };
}
