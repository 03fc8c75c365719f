import { Binary, type Db } from 'mongodb';
import { isDuplicateKeyError } from '@stormhook/mongo';

/**
 * The full weather events (protobuf bytes as ingest published them), one collection per UTC day
 * of the event's time: `<name>_payloads_<yyyymmdd>`, `_id` = `<eventId>:<revision>`. Reads are by
 * `_id` only (the one lookup FerretDB serves from an index) and retention drops whole days, because
 * a filtered delete would scan every document.
 */
export class PayloadStore {
  constructor(
    private readonly db: Db,
    readonly name: string,
  ) {}

  private collectionFor(time: number) {
    const day = new Date(time).toISOString().slice(0, 10).replace(/-/g, '');
    return this.db.collection<{ _id: string; d: Binary }>(`${this.name}_payloads_${day}`);
  }

  /** Stores one revision; storing it again is a no-op. */
  async put(eventId: string, revision: number, time: number, bytes: Uint8Array): Promise<void> {
    try {
      await this.collectionFor(time).insertOne({ _id: `${eventId}:${revision}`, d: new Binary(bytes) });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  async get(eventId: string, revision: number, time: number): Promise<Uint8Array | undefined> {
    const doc = await this.collectionFor(time).findOne({ _id: `${eventId}:${revision}` });
    return doc?.d.buffer;
  }

  /** Drops the collections of days that ended before `cutoff`; returns their names. */
  async dropDaysBefore(cutoff: number): Promise<string[]> {
    const firstKept = new Date(cutoff).toISOString().slice(0, 10).replace(/-/g, '');
    const prefix = `${this.name}_payloads_`;
    const names = (await this.db.listCollections({}, { nameOnly: true }).toArray())
      .map((c) => c.name)
      .filter((n) => n.startsWith(prefix) && n.slice(prefix.length) < firstKept);
    for (const name of names) await this.db.collection(name).drop();
    return names;
  }
}
