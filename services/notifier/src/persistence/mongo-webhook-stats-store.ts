import type { Collection, Db } from 'mongodb';
import type { AccountStats } from '../domain/webhook-stats.js';
import type { WebhookStatsStore } from '../ports/webhook-stats-store.js';
import { COLLECTIONS } from './collections.js';
import { WriteGate } from './write-gate.js';

type StatsDocument = AccountStats & { _id: string; writerId: string };
interface WriterDocument {
  _id: string;
  lastFlushAt: Date;
}

const statsKey = (accountId: string, writerId: string): string => `${accountId}|${writerId}`;

export interface WebhookStatsStoreOptions {
  /** The process's write gate, shared with the delivery store (see MongoDeliveryStore). */
  gate?: WriteGate;
  /**
   * Replaces per gated write. A round of 500 upserts in one bulkWrite held SQLite's single writer for
   * seconds beside the deliveries' own writes, and with 1,500 accounts the notifier stopped delivering
   * (city-storm bench); small writes through the shared gate let deliveries' writes in between.
   */
  replacesPerWrite?: number;
}

/**
 * The writers' statistics documents, read by `_id` only (the one filter FerretDB 1.x on SQLite answers
 * from an index). The writer list is a scan, of a collection holding one small document per notifier
 * process started within the retention (two replicas restarted daily: about 14).
 */
export class MongoWebhookStatsStore implements WebhookStatsStore {
  private readonly stats: Collection<StatsDocument>;
  private readonly writerDocs: Collection<WriterDocument>;
  private readonly gate: WriteGate;
  private readonly replacesPerWrite: number;

  constructor(db: Db, { gate = new WriteGate(1), replacesPerWrite = 20 }: WebhookStatsStoreOptions = {}) {
    if (!Number.isInteger(replacesPerWrite) || replacesPerWrite < 1)
      throw new RangeError(`replacesPerWrite must be a positive integer, got ${replacesPerWrite}`);
    this.stats = db.collection<StatsDocument>(COLLECTIONS.webhookStats);
    this.writerDocs = db.collection<WriterDocument>(COLLECTIONS.webhookStatWriters);
    this.gate = gate;
    this.replacesPerWrite = replacesPerWrite;
  }

  async touchWriter(writerId: string, at: Date): Promise<void> {
    await this.gate.run(() => this.writerDocs.replaceOne({ _id: writerId }, { lastFlushAt: at }, { upsert: true }));
  }

  /** Writes in chunks, each waiting its turn at the gate; a chunk that fails fails the save (the recorder retries the round). */
  async save(writerId: string, all: readonly AccountStats[]): Promise<void> {
    for (let start = 0; start < all.length; start += this.replacesPerWrite) {
      const chunk = all.slice(start, start + this.replacesPerWrite);
      await this.gate.run(() =>
        this.stats.bulkWrite(
          chunk.map((stats) => ({
            replaceOne: { filter: { _id: statsKey(stats.accountId, writerId) }, replacement: { ...stats, writerId }, upsert: true },
          })),
          { ordered: false },
        ),
      );
    }
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
    await this.gate.run(() => this.stats.deleteMany({ writerId: { $in: gone } }));
    await this.gate.run(() => this.writerDocs.deleteMany({ _id: { $in: gone } }));
    return gone.length;
  }
}
