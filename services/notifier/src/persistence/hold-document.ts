import type { HeldDelivery, Hold } from '../ports/delivery-store.js';

export interface HoldDocument {
  _id: string;
  owner: string;
  leaseUntil: Date;
  deliveries: HeldDelivery[];
}

export function fromHoldDocument(doc: HoldDocument): Hold {
  return { id: doc._id, owner: doc.owner, leaseUntil: doc.leaseUntil, deliveries: doc.deliveries };
}
