import { Binary, type Db } from 'mongodb';
import { isDuplicateKeyError } from '@stormhook/mongo';

interface ForecastDoc {
  _id: string;
  runId: string;
  model: string;
  issue: number;
  d: Binary;
}

/**
 * Forecast events as ingest published them (`_id` = `<eventId>:<revision>`). The collection only
 * ever holds the runs in use (superseded runs are deleted), a few megabytes, so reading it whole
 * at start and deleting a run by filter are cheap even on FerretDB.
 */
export class ForecastRepository {
  private readonly collection;

  constructor(db: Db) {
    this.collection = db.collection<ForecastDoc>('forecast_events');
  }

  async put(event: { eventId: string; revision: number; runId: string; model: string; issue: number }, bytes: Uint8Array): Promise<void> {
    try {
      await this.collection.insertOne({
        _id: `${event.eventId}:${event.revision}`,
        runId: event.runId,
        model: event.model,
        issue: event.issue,
        d: new Binary(bytes),
      });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  async forEach(visit: (bytes: Uint8Array) => void): Promise<number> {
    let n = 0;
    for await (const doc of this.collection.find({})) {
      visit(doc.d.buffer);
      n++;
    }
    return n;
  }

  async deleteRun(runId: string): Promise<number> {
    return (await this.collection.deleteMany({ runId })).deletedCount;
  }
}
