import type { HeldDelivery, Hold } from '../ports/delivery-store.js';
import { packFields, unpackFields } from './packed-fields.js';

/**
 * One hold: a batch of fresh deliveries whose first attempt an instance holds in memory. Its
 * deliveries are kept as one packed string (packed-fields.ts): as an array FerretDB stored a type
 * schema for every field of every element, three per delivery. Holds written before are arrays;
 * both are read.
 */
export interface HoldDocument {
  _id: string;
  owner: string;
  leaseUntil: Date;
  deliveries: HeldDelivery[] | string;
}

const NO_DATES: ReadonlySet<string> = new Set();

export function toHoldDocument(id: string, owner: string, leaseUntil: Date, deliveries: readonly HeldDelivery[]): HoldDocument {
  return { _id: id, owner, leaseUntil, deliveries: packFields(deliveries) };
}

export function fromHoldDocument(doc: HoldDocument): Hold {
  const deliveries = typeof doc.deliveries === 'string' ? unpackFields<HeldDelivery[]>(doc.deliveries, NO_DATES) : doc.deliveries;
  return { id: doc._id, owner: doc.owner, leaseUntil: doc.leaseUntil, deliveries };
}
