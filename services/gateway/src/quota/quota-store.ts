import { randomUUID } from 'node:crypto';
import { bulkWriteInChunks, ensureIndexes } from '@stormhook/mongo';
import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import type { QuotaShares, ShareRead, ShareWrite } from './quota-shares.js';

/**
 * One gateway instance's share of one usage counter. The total of a counter is the sum of the
 * shares of every instance, so counters are shared by all instances and survive restarts.
 *
 * Why shares: FerretDB 1.x applies `$inc` (and any read-modify-write) without isolation, so
 * concurrent updates of one document get lost. Each share has exactly one writer (its instance,
 * which writes the absolute count with `$set`, one flush at a time), so nothing can race; readers
 * only ever sum.
 * WARNING: field names are the gateway's database schema; renaming one needs a migration.
 */
export interface QuotaShareDoc {
  /** `<counter key>|<instance id>`. */
  _id: string;
  /** The counter: `<accountId>|<service>|<window start epoch ms>`. */
  key: string;
  instance: string;
  count: number;
  /** Write sequence of this share (absent on shares written before batching: read as 0). */
  seq?: number;
  /** After this the share is dead weight and housekeeping deletes it (no TTL indexes on FerretDB). */
  windowEndsAt: Date;
  /** The writer's clock; the periodic read of the other instances' shares ranges over it. */
  updatedAt: Date;
}

export const QUOTA_COLLECTION = 'quota_counters';
/** The abuse limits' counters (rate-limits.ts): same shares, kept apart so each meter reads only its own. */
export const ABUSE_COLLECTION = 'abuse_counters';

export async function ensureQuotaIndexes(db: Db, collection: string = QUOTA_COLLECTION): Promise<void> {
  await ensureIndexes(db.collection(collection), [
    { name: 'key', key: { key: 1 } },
    { name: 'windowEndsAt', key: { windowEndsAt: 1 } },
    { name: 'updatedAt', key: { updatedAt: 1 } },
  ]);
}

const PROJECTION = { key: 1, instance: 1, count: 1, seq: 1, windowEndsAt: 1 } as const;

function toRead(doc: Pick<QuotaShareDoc, 'key' | 'instance' | 'count' | 'seq' | 'windowEndsAt'>): ShareRead {
  return {
    key: doc.key,
    instance: doc.instance,
    count: typeof doc.count === 'number' ? doc.count : 0,
    seq: typeof doc.seq === 'number' ? doc.seq : 0,
    ...(doc.windowEndsAt instanceof Date ? { windowEndsAt: doc.windowEndsAt } : {}),
  };
}

/** The quota shares in the gateway's own database. */
export class QuotaStore implements QuotaShares {
  constructor(
    private readonly shares: Collection<QuotaShareDoc>,
    /**
     * New on every start: a restarted gateway writes new shares and never races a share an older
     * process (still stopping, or a replica misconfigured with the same name) may still write.
     */
    readonly instanceId: string = randomUUID(),
  ) {}

  static over(db: Db, instanceId?: string, collection: string = QUOTA_COLLECTION): QuotaStore {
    return new QuotaStore(db.collection<QuotaShareDoc>(collection), instanceId);
  }

  async write(writes: readonly ShareWrite[], at: Date): Promise<void> {
    if (writes.length === 0) return;
    const operations: AnyBulkWriteOperation<QuotaShareDoc>[] = writes.map((w) => ({
      updateOne: {
        filter: { _id: `${w.key}|${this.instanceId}` },
        update: { $set: { key: w.key, instance: this.instanceId, count: w.count, seq: w.seq, windowEndsAt: w.windowEndsAt, updatedAt: at } },
        upsert: true,
      },
    }));
    await bulkWriteInChunks(this.shares, operations);
  }

  async sharesOf(key: string): Promise<ShareRead[]> {
    return (await this.shares.find({ key }, { projection: PROJECTION }).toArray()).map(toRead);
  }

  async changedSince(since: Date): Promise<ShareRead[]> {
    return (await this.shares.find({ updatedAt: { $gte: since } }, { projection: PROJECTION }).toArray()).map(toRead);
  }

  async purgeEnded(before: Date): Promise<number> {
    return (await this.shares.deleteMany({ windowEndsAt: { $lt: before } })).deletedCount;
  }
}
