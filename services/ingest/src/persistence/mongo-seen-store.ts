import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError } from '@stormhook/mongo';
import type { FeedKind } from '../domain/normalised.js';
import type { SeenKey, SeenRecord, SeenStore } from '../dedup/seen-store.js';

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

export function seenId(key: SeenKey): string {
  return `${key.feed}:${key.sourceId}`;
}

/**
 * SeenStore on ingest's own database. Every write is a single-document operation (the embedded
 * database has no transactions): an insert that the `_id` index refuses when the key exists, or a
 * replace conditional on the revision it read.
 */
export class MongoSeenStore implements SeenStore {
  constructor(
    private readonly collection: Collection<SeenDocument>,
    private readonly clock: () => number = Date.now,
  ) {}

  static open(db: Db, clock: () => number = Date.now): MongoSeenStore {
    return new MongoSeenStore(db.collection<SeenDocument>(SEEN_COLLECTION), clock);
  }

  async find(key: SeenKey): Promise<SeenRecord | null> {
    const doc = await this.collection.findOne({ _id: seenId(key) });
    if (!doc) return null;
    return {
      revision: doc.revision,
      contentHash: doc.contentHash,
      sourceVersion: doc.sourceVersion,
      sourceUpdatedEpochMs: doc.sourceUpdatedEpochMs,
      eventTimeEpochMs: doc.eventTimeEpochMs,
    };
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
