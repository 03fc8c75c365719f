import { MongoBulkWriteError, type Collection, type Db } from 'mongodb';
import { isDuplicateKeyError } from '@stormhook/mongo';
import type { FeedKind } from '../domain/normalised.js';
import { seenKeyId, type BatchSeenStore, type SeenKey, type SeenRecord } from '../dedup/seen-store.js';

/**
 * One document per source record ingest has published. The key is the `_id`, `<feed>:<source id>`:
 * its index is the unique index that makes de-duplication safe, and FerretDB (on SQLite) answers
 * `_id` lookups without scanning the collection, which it does not for secondary indexes. For the
 * same reason there is no secondary index at all: every one slowed inserts, the hot path, several
 * times over, and the hourly purge scans once either way.
 */
export interface SeenDocument extends SeenRecord {
  _id: string;
  feed: FeedKind;
  sourceId: string;
  firstSeenAt: Date;
  updatedAt: Date;
}

export const SEEN_COLLECTION = 'seen_records';

export const seenId = seenKeyId;

/** At most this many look-ups of a batch are out at once (the driver's pool stays free for the rest). */
const FIND_PARALLELISM = 64;

function toRecord(doc: SeenDocument): SeenRecord {
  return {
    revision: doc.revision,
    contentHash: doc.contentHash,
    sourceVersion: doc.sourceVersion,
    sourceUpdatedEpochMs: doc.sourceUpdatedEpochMs,
    eventTimeEpochMs: doc.eventTimeEpochMs,
  };
}

/**
 * SeenStore on ingest's own database. Every write is a single-document operation (the embedded
 * database has no transactions): an insert that the `_id` index refuses when the key exists, or a
 * replace conditional on the revision it read.
 */
export class MongoSeenStore implements BatchSeenStore {
  constructor(
    private readonly collection: Collection<SeenDocument>,
    private readonly clock: () => number = Date.now,
  ) {}

  static open(db: Db, clock: () => number = Date.now): MongoSeenStore {
    return new MongoSeenStore(db.collection<SeenDocument>(SEEN_COLLECTION), clock);
  }

  async find(key: SeenKey): Promise<SeenRecord | null> {
    const doc = await this.collection.findOne({ _id: seenId(key) });
    return doc ? toRecord(doc) : null;
  }

  /**
   * `_id` equality look-ups, several at once. Not one `$in` query: FerretDB does not push `$in` down
   * to SQLite and would scan the collection, while an `_id` equality uses its index.
   */
  async findMany(keys: readonly SeenKey[]): Promise<Array<SeenRecord | null>> {
    const results: Array<SeenRecord | null> = new Array<SeenRecord | null>(keys.length).fill(null);
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let i = next++; i < keys.length; i = next++) {
        const doc = await this.collection.findOne({ _id: seenId(keys[i]!) });
        results[i] = doc ? toRecord(doc) : null;
      }
    };
    await Promise.all(Array.from({ length: Math.min(FIND_PARALLELISM, keys.length) }, worker));
    return results;
  }

  /** A scan (there is no index but `_id`, see above); used once per start or rebalance. */
  async findSince(feed: FeedKind, epochMs: number): Promise<Array<{ key: SeenKey; record: SeenRecord }>> {
    const docs = await this.collection.find({ feed, eventTimeEpochMs: { $gte: epochMs } }).toArray();
    return docs.map((doc) => ({ key: { feed: doc.feed, sourceId: doc.sourceId }, record: toRecord(doc) }));
  }

  /** One unordered `insertMany`: the `_id` index refuses keys that exist, the rest are written. */
  async insertMany(items: ReadonlyArray<{ key: SeenKey; record: SeenRecord }>): Promise<boolean[]> {
    if (items.length === 0) return [];
    const now = new Date(this.clock());
    const docs = items.map(({ key, record }): SeenDocument => ({
      _id: seenId(key),
      feed: key.feed,
      sourceId: key.sourceId,
      ...record,
      firstSeenAt: now,
      updatedAt: now,
    }));
    const created = new Array<boolean>(items.length).fill(true);
    try {
      await this.collection.insertMany(docs, { ordered: false });
    } catch (error) {
      if (!(error instanceof MongoBulkWriteError)) throw error;
      const writeErrors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
      // Anything but "exists" (or an error without per-document detail) fails the whole batch: retried.
      if (writeErrors.length === 0 || writeErrors.some((e) => e.code !== 11000)) throw error;
      for (const e of writeErrors) created[e.index] = false;
    }
    return created;
  }

  async insert(key: SeenKey, record: SeenRecord): Promise<boolean> {
    const now = new Date(this.clock());
    try {
      await this.collection.insertOne({ _id: seenId(key), feed: key.feed, sourceId: key.sourceId, ...record, firstSeenAt: now, updatedAt: now });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async replace(key: SeenKey, expectedRevision: number, record: SeenRecord): Promise<boolean> {
    const result = await this.collection.updateOne(
      { _id: seenId(key), revision: expectedRevision },
      { $set: { ...record, updatedAt: new Date(this.clock()) } },
    );
    return result.matchedCount === 1;
  }

  async purgeBefore(epochMs: number): Promise<number> {
    const result = await this.collection.deleteMany({ eventTimeEpochMs: { $lt: epochMs } });
    return result.deletedCount;
  }
}
