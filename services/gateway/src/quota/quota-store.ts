import { randomUUID } from 'node:crypto';
import { ensureIndexes } from '@stormhook/mongo';
import type { Collection, Db } from 'mongodb';

/**
 * One gateway instance's share of one usage counter. The total of a counter is the sum of the
 * shares of every instance, so counters are shared by all instances and survive restarts.
 *
 * Why shares: FerretDB 1.x applies `$inc` as read-modify-write without isolation, so concurrent
 * increments of one document get lost. Each share has exactly one writer (its instance, which
 * serialises its own writes), so its read-modify-write cannot race; readers only ever sum.
 * WARNING: field names are the gateway's database schema; renaming one needs a migration.
 */
export interface QuotaShareDoc {
  /** `<counter key>|<instance id>`. */
  _id: string;
  /** The counter: `<accountId>|<service>|<window start epoch ms>`. */
  key: string;
  instance: string;
  count: number;
  /** After this the share is dead weight and housekeeping deletes it (no TTL indexes on FerretDB). */
  windowEndsAt: Date;
  updatedAt: Date;
}

export const QUOTA_COLLECTION = 'quota_counters';

export async function ensureQuotaIndexes(db: Db): Promise<void> {
  await ensureIndexes(db.collection(QUOTA_COLLECTION), [
    { name: 'key', key: { key: 1 } },
    { name: 'windowEndsAt', key: { windowEndsAt: 1 } },
  ]);
}

export class QuotaStore {
  /** The tail of the write queue of each of this instance's shares. */
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    private readonly shares: Collection<QuotaShareDoc>,
    /** Unique per process: a restarted gateway writes new shares and never races a dead one's. */
    readonly instanceId: string = randomUUID(),
  ) {}

  static over(db: Db, instanceId?: string): QuotaStore {
    return new QuotaStore(db.collection<QuotaShareDoc>(QUOTA_COLLECTION), instanceId);
  }

  /** Adds `delta` to this instance's share of `key`; writes to one share run one after another. */
  add(key: string, delta: number, windowEndsAt: Date): Promise<void> {
    const id = `${key}|${this.instanceId}`;
    const previous = this.queues.get(id) ?? Promise.resolve();
    const write = previous
      .catch(() => undefined)
      .then(async () => {
        await this.shares.updateOne(
          { _id: id },
          { $inc: { count: delta }, $set: { key, instance: this.instanceId, windowEndsAt, updatedAt: new Date() } },
          { upsert: true },
        );
      });
    this.queues.set(id, write);
    void write.finally(() => {
      if (this.queues.get(id) === write) this.queues.delete(id);
    }).catch(() => undefined);
    return write;
  }

  /** The counter: the sum of every instance's share. */
  async total(key: string): Promise<number> {
    const shares = await this.shares.find({ key }, { projection: { count: 1 } }).toArray();
    return shares.reduce((sum, share) => sum + (typeof share.count === 'number' ? share.count : 0), 0);
  }

  /** Deletes shares of windows that ended before `before`. */
  async purgeEnded(before: Date): Promise<number> {
    return (await this.shares.deleteMany({ windowEndsAt: { $lt: before } })).deletedCount;
  }
}
