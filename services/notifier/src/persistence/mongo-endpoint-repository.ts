import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError } from '@stormhook/mongo';
import type { WebhookEndpoint } from '../domain/endpoint.js';
import type { EndpointChangeLog } from '../ports/endpoint-change-log.js';
import type { EndpointKey, EndpointRepository } from '../ports/endpoint-repository.js';
import type { CredentialCipher } from '../security/credential-cipher.js';
import { COLLECTIONS } from './collections.js';
import { fromEndpointDocument, toEndpointDocument, type EndpointDocument } from './endpoint-document.js';

/** The account's endpoint id, keyed by account id (an endpoint's account never changes, and endpoints are never deleted). */
interface AccountPointer {
  _id: string;
  endpointId: string;
}

/**
 * Endpoints by `_id`, and by account through a pointer document per account, so that every lookup
 * on the request and delivery paths is an `_id` lookup: FerretDB 1.x on SQLite scans the collection
 * for any other filter. The pointer is written after the endpoint (the unique account index still
 * decides which endpoint an account gets); an endpoint left without one by a crash in between is
 * pointed to when its account's create is retried (duplicate), and at the next start
 * ({@link backfillAccountPointers}). Every write is recorded in the change log when one is given, so
 * other instances' caches learn of it (EndpointChangeWatcher).
 */
export class MongoEndpointRepository implements EndpointRepository {
  private readonly collection: Collection<EndpointDocument>;
  private readonly pointers: Collection<AccountPointer>;

  constructor(
    db: Db,
    private readonly cipher: CredentialCipher,
    private readonly changes?: EndpointChangeLog,
  ) {
    this.collection = db.collection<EndpointDocument>(COLLECTIONS.endpoints);
    this.pointers = db.collection<AccountPointer>(COLLECTIONS.endpointAccounts);
  }

  async findByAccount(accountId: string): Promise<WebhookEndpoint | null> {
    const pointer = await this.pointers.findOne({ _id: accountId });
    return pointer ? this.findById(pointer.endpointId) : null;
  }

  /**
   * Points every endpoint's account at it where no pointer exists yet: endpoints stored before the
   * pointers existed, or left without one by a crash. Reads both collections once when their counts
   * differ (never on a steady start); answers how many pointers it wrote.
   */
  async backfillAccountPointers(): Promise<number> {
    const [endpoints, pointers] = await Promise.all([this.collection.countDocuments(), this.pointers.countDocuments()]);
    if (endpoints === pointers) return 0;
    const pointed = new Set((await this.pointers.find({}, { projection: { _id: 1 } }).toArray()).map((p) => p._id));
    const missing: AccountPointer[] = [];
    for await (const doc of this.collection.find({}, { projection: { _id: 1, accountId: 1 } })) {
      if (!pointed.has(doc.accountId)) missing.push({ _id: doc.accountId, endpointId: doc._id });
    }
    for (let i = 0; i < missing.length; i += 1_000) await this.pointTo(missing.slice(i, i + 1_000));
    return missing.length;
  }

  /** Idempotent: an account's endpoint id never changes, so an existing pointer already says the same. */
  private async pointTo(pointers: readonly AccountPointer[]): Promise<void> {
    if (pointers.length === 0) return;
    try {
      await this.pointers.insertMany([...pointers], { ordered: false });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  /** After a duplicate create: the stored endpoint may lack its pointer (a crash between the two inserts). Rare, so the scan is fine. */
  private async repairPointer(accountId: string): Promise<void> {
    if (await this.pointers.findOne({ _id: accountId })) return;
    const doc = await this.collection.findOne({ accountId }, { projection: { _id: 1 } });
    if (doc) await this.pointTo([{ _id: accountId, endpointId: doc._id }]);
  }

  async findById(endpointId: string): Promise<WebhookEndpoint | null> {
    const doc = await this.collection.findOne({ _id: endpointId });
    return doc ? fromEndpointDocument(doc, this.cipher) : null;
  }

  async insert(endpoint: WebhookEndpoint): Promise<'inserted' | 'duplicate'> {
    try {
      await this.collection.insertOne(toEndpointDocument(endpoint, this.cipher));
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      await this.repairPointer(endpoint.accountId);
      return 'duplicate';
    }
    await this.pointTo([{ _id: endpoint.accountId, endpointId: endpoint.id }]);
    // Other instances may remember that the account had no endpoint.
    await this.changes?.record({ endpointId: endpoint.id, accountId: endpoint.accountId }, new Date());
    return 'inserted';
  }

  async save(endpoint: WebhookEndpoint): Promise<void> {
    const { _id, ...rest } = toEndpointDocument(endpoint, this.cipher);
    await this.collection.updateOne({ _id }, { $set: rest });
    await this.changes?.record({ endpointId: endpoint.id, accountId: endpoint.accountId }, new Date());
  }

  async setFailingSince(endpoint: EndpointKey, failingSince: Date | null): Promise<void> {
    await this.collection.updateOne({ _id: endpoint.id }, { $set: { failingSince } });
    await this.changes?.record({ endpointId: endpoint.id, accountId: endpoint.accountId }, new Date());
  }

  async disable(endpoint: EndpointKey, reason: string, at: Date): Promise<boolean> {
    const result = await this.collection.updateOne(
      { _id: endpoint.id, status: 'enabled' },
      { $set: { status: 'disabled', disabledReason: reason, disabledAt: at, updatedAt: at } },
    );
    if (result.modifiedCount > 0) await this.changes?.record({ endpointId: endpoint.id, accountId: endpoint.accountId }, at);
    return result.modifiedCount > 0;
  }
}
