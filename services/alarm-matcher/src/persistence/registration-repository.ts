import type { Collection, Db, Filter } from 'mongodb';
import { isDuplicateKeyError } from '@stormhook/mongo';
import { areaKeyOf, type Delivery, type Registration, type RegistrationKind } from '../domain/registration.js';
import type { Page, RegistrationQuery, RegistrationRepository } from '../ports/registration-repository.js';
import { COLLECTIONS } from './collections.js';

/**
 * The stored form: the domain object plus its id and the area key of the uniqueness rule. The filter is
 * stored as the domain has it, so an optional filter field added later (the approach stage, the
 * lightning approach ring) is kept without a migration, and documents written before it load with the
 * field absent, which means what it meant then.
 */
export type RegistrationDocument = Omit<Registration, 'registrationId'> & { _id: string; areaKey: string; delivery?: Delivery[] };

export function toDocument(registration: Registration): RegistrationDocument {
  const { registrationId, ...rest } = registration;
  // A JSON round trip drops undefined members, which the driver would otherwise store as null.
  const plain = JSON.parse(JSON.stringify(rest)) as Omit<Registration, 'registrationId'>;
  return { _id: registrationId, ...plain, areaKey: areaKeyOf(registration) } as RegistrationDocument;
}

export function fromDocument(doc: RegistrationDocument): Registration {
  const { _id, areaKey: _areaKey, ...rest } = doc;
  return { registrationId: _id, ...rest } as Registration;
}

function filterOf(query: RegistrationQuery): Filter<RegistrationDocument> {
  const filter: Filter<RegistrationDocument> = { kind: query.kind };
  if (query.accountId !== undefined) filter.accountId = query.accountId;
  if (query.recipientIds && query.recipientIds.length > 0) filter.recipientId = { $in: [...query.recipientIds] };
  if (query.areaKey !== undefined) filter.areaKey = query.areaKey;
  return filter;
}

export class MongoRegistrationRepository implements RegistrationRepository {
  private readonly collection: Collection<RegistrationDocument>;

  constructor(db: Db) {
    this.collection = db.collection<RegistrationDocument>(COLLECTIONS.registrations);
  }

  async insert(registration: Registration): Promise<'inserted' | 'duplicate'> {
    try {
      await this.collection.insertOne(toDocument(registration));
      return 'inserted';
    } catch (error) {
      if (isDuplicateKeyError(error)) return 'duplicate';
      throw error;
    }
  }

  /** Bulk import (benchmarks, migrations): unordered, so one duplicate does not stop the rest. */
  async insertMany(registrations: readonly Registration[]): Promise<number> {
    if (registrations.length === 0) return 0;
    try {
      return (await this.collection.insertMany(registrations.map(toDocument), { ordered: false })).insertedCount;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return (error as { result?: { insertedCount?: number } }).result?.insertedCount ?? 0;
    }
  }

  async replace(registration: Registration): Promise<'replaced' | 'duplicate' | 'missing'> {
    try {
      const result = await this.collection.replaceOne({ _id: registration.registrationId }, toDocument(registration));
      return result.matchedCount === 0 ? 'missing' : 'replaced';
    } catch (error) {
      if (isDuplicateKeyError(error)) return 'duplicate';
      throw error;
    }
  }

  async delete(registrationId: string): Promise<boolean> {
    const result = await this.collection.deleteOne({ _id: registrationId });
    return result.deletedCount > 0;
  }

  async findById(registrationId: string): Promise<Registration | undefined> {
    const doc = await this.collection.findOne({ _id: registrationId });
    return doc ? fromDocument(doc) : undefined;
  }

  async findByArea(accountId: string, kind: RegistrationKind, recipientId: string, areaKey: string): Promise<Registration | undefined> {
    const doc = await this.collection.findOne({ accountId, kind, recipientId, areaKey });
    return doc ? fromDocument(doc) : undefined;
  }

  async page(query: RegistrationQuery, pageNumber: number, pageSize: number): Promise<Page<Registration>> {
    const filter = filterOf(query);
    const [docs, total] = await Promise.all([
      this.collection
        .find(filter)
        .sort({ createdAtMs: 1, _id: 1 })
        .skip(pageNumber * pageSize)
        .limit(pageSize)
        .toArray(),
      this.collection.countDocuments(filter),
    ]);
    return { items: docs.map(fromDocument), total };
  }

  async list(query: RegistrationQuery): Promise<Registration[]> {
    const docs = await this.collection.find(filterOf(query)).sort({ createdAtMs: 1, _id: 1 }).toArray();
    return docs.map(fromDocument);
  }

  async *all(): AsyncIterable<Registration> {
    for await (const doc of this.collection.find({})) yield fromDocument(doc);
  }
}
