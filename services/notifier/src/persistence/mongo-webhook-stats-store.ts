import type { Collection, Db } from 'mongodb';
import type { AccountStats } from '../domain/webhook-stats.js';
import type { WebhookStatsStore } from '../ports/webhook-stats-store.js';
import { COLLECTIONS } from './collections.js';

type StatsDocument = AccountStats & { _id: string; writerId: string };
interface WriterDocument {
  _id: string;
  lastFlushAt: Date;
}

const statsKey = (accountId: string, writerId: string): string => `${accountId}|${writerId}`;

/**
 * The writers' statistics documents, read by `_id` only (the one filter FerretDB 1.x on SQLite answers
 * from an index). The writer list is a scan, of a collection holding one small document per notifier
 * process started within the retention (two replicas restarted daily: about 14).
 */
export class MongoWebhookStatsStore implements WebhookStatsStore {
  private readonly stats: Collection<StatsDocument>;
  private readonly writerDocs: Collection<WriterDocument>;

  constructor(db: Db) {
    this.stats = db.collection<StatsDocument>(COLLECTIONS.webhookStats);
    this.writerDocs = db.collection<WriterDocument>(COLLECTIONS.webhookStatWriters);
  }

  async touchWriter(writerId: string, at: Date): Promise<void> {
    await this.writerDocs.replaceOne({ _id: writerId }, { lastFlushAt: at }, { upsert: true });
  }

  async save(writerId: string, all: readonly AccountStats[]): Promise<void> {
    if (all.length === 0) return;
    await this.stats.bulkWrite(
      all.map((stats) => ({
        replaceOne: { filter: { _id: statsKey(stats.accountId, writerId) }, replacement: { ...stats, writerId }, upsert: true },
      })),
      { ordered: false },
    );
  }

  async writers(since: Date): Promise<string[]> {
    return (await this.writerDocs.find({ lastFlushAt: { $gte: since } }, { projection: { _id: 1 } }).toArray()).map((w) => w._id);
  }

  async load(accountId: string, writerIds: readonly string[]): Promise<AccountStats[]> {
    const docs = await Promise.all(writerIds.map((writerId) => this.stats.findOne({ _id: statsKey(accountId, writerId) })));
    return docs.flatMap((doc) => {
      if (!doc) return [];
      const { _id, writerId: _w, ...stats } = doc;
      return [stats];
    });
  }

  async removeWritersBefore(before: Date): Promise<number> {
    const gone = (await this.writerDocs.find({ lastFlushAt: { $lt: before } }, { projection: { _id: 1 } }).toArray()).map((w) => w._id);
    if (gone.length === 0) return 0;
    await this.stats.deleteMany({ writerId: { $in: gone } });
    await this.writerDocs.deleteMany({ _id: { $in: gone } });
    return gone.length;
  }
}
