import { bulkWriteInChunks } from '@stormhook/mongo';
import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import type { LightningActivity } from '../lifecycle/lightning-episode.js';
import type { LightningActivityStore } from '../ports/lightning-activity-store.js';
import { COLLECTIONS } from './collections.js';

interface ActivityDocument {
  _id: string;
  firstStrikeMs: number;
  lastStrikeMs: number;
}

const fromDocument = (doc: ActivityDocument): LightningActivity => ({
  registrationId: doc._id,
  firstStrikeMs: doc.firstStrikeMs,
  lastStrikeMs: doc.lastStrikeMs,
});

export class MongoLightningActivityStore implements LightningActivityStore {
  private readonly collection: Collection<ActivityDocument>;

  /** `collection`: the episodes inside areas by default; the approach rings' episodes live in their own. */
  constructor(db: Db, collection: string = COLLECTIONS.lightningActivity) {
    this.collection = db.collection<ActivityDocument>(collection);
  }

  async get(registrationIds: readonly string[]): Promise<Map<string, LightningActivity>> {
    // One lookup per id: FerretDB answers _id equality from its index, but scans for $in.
    const docs = await Promise.all(registrationIds.map((id) => this.collection.findOne({ _id: id })));
    return new Map(docs.filter((doc): doc is ActivityDocument => doc !== null).map((doc) => [doc._id, fromDocument(doc)]));
  }

  async save(activities: readonly LightningActivity[]): Promise<void> {
    if (activities.length === 0) return;
    const operations: AnyBulkWriteOperation<ActivityDocument>[] = activities.map((a) => ({
      replaceOne: {
        filter: { _id: a.registrationId },
        replacement: { _id: a.registrationId, firstStrikeMs: a.firstStrikeMs, lastStrikeMs: a.lastStrikeMs },
        upsert: true,
      },
    }));
    await bulkWriteInChunks(this.collection, operations);
  }

  async quietSince(lastStrikeAtOrBeforeMs: number, limit: number): Promise<LightningActivity[]> {
    const docs = await this.collection
      .find({ lastStrikeMs: { $lte: lastStrikeAtOrBeforeMs } })
      .limit(limit)
      .toArray();
    return docs.map(fromDocument);
  }

  async close(activity: LightningActivity): Promise<void> {
    // Only the episode that was cleared: a strike that opened or extended one meanwhile changed these fields.
    await this.collection.deleteOne({ _id: activity.registrationId, firstStrikeMs: activity.firstStrikeMs, lastStrikeMs: activity.lastStrikeMs });
  }
}
