import type { Position } from '@stormhook/geometry';
import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError } from '@stormhook/mongo';
import type { DailyValues } from '../forecast/daily.js';
import { supersedes, type CellForecast } from '../forecast/forecast-cells.js';
import type { ForecastStore } from '../ports/forecast-store.js';
import { COLLECTIONS } from './collections.js';

/**
 * One document per (run, cell), written by insert: on FerretDB an insert is cheap where an update
 * scans the collection, and a run has thousands of cells. Readers keep the latest run of each cell;
 * housekeeping deletes runs superseded for longer than the retention.
 */
interface CellDocument {
  _id: string;
  cellId: string;
  runId: string;
  issueMs: number;
  lng: number;
  lat: number;
  days: DailyValues[];
  updatedAtMs: number;
}

const fromDocument = (doc: CellDocument): CellForecast => ({
  cellId: doc.cellId,
  location: [doc.lng, doc.lat],
  runId: doc.runId,
  issueMs: doc.issueMs,
  days: doc.days,
});

/** Of several runs of each cell, the latest (by issue time, then run id for a stable answer). */
function latestPerCell(docs: readonly CellDocument[]): CellForecast[] {
  const latest = new Map<string, CellDocument>();
  for (const doc of docs) {
    const held = latest.get(doc.cellId);
    if (!held || supersedes(doc, held)) latest.set(doc.cellId, doc);
  }
  return [...latest.values()].map(fromDocument);
}

export class MongoForecastStore implements ForecastStore {
  private readonly collection: Collection<CellDocument>;

  constructor(db: Db) {
    this.collection = db.collection<CellDocument>(COLLECTIONS.forecastCells);
  }

  async save(cells: readonly CellForecast[], nowMs: number): Promise<void> {
    if (cells.length === 0) return;
    const docs: CellDocument[] = cells.map((cell) => ({
      _id: `${cell.runId}|${cell.cellId}`,
      cellId: cell.cellId,
      runId: cell.runId,
      issueMs: cell.issueMs,
      lng: cell.location[0],
      lat: cell.location[1],
      days: JSON.parse(JSON.stringify(cell.days)) as DailyValues[],
      updatedAtMs: nowMs,
    }));
    try {
      await this.collection.insertMany(docs, { ordered: false });
    } catch (error) {
      const raw = (error as { writeErrors?: unknown }).writeErrors;
      const list = (Array.isArray(raw) ? raw : raw ? [raw] : []) as Array<{ index?: number }>;
      if (list.length === 0 || !list.every((item) => isDuplicateKeyError(item) && item.index !== undefined)) throw error;
      // A new revision of a chunk already stored: its cells are replaced (rare, so the slow path is fine).
      for (const { index } of list) {
        const doc = docs[index!]!;
        await this.collection.replaceOne({ _id: doc._id }, doc, { upsert: true });
      }
    }
  }

  async all(): Promise<CellForecast[]> {
    return latestPerCell(await this.collection.find({}).toArray());
  }

  async near(point: Position, radiusDeg: number): Promise<CellForecast[]> {
    const [lng, lat] = point;
    const docs = await this.collection
      .find({ lat: { $gte: lat - radiusDeg, $lte: lat + radiusDeg }, lng: { $gte: lng - radiusDeg, $lte: lng + radiusDeg } }, { projection: { days: 0 } })
      .toArray();
    return latestPerCell(docs.map((doc) => ({ ...doc, days: [] })));
  }

  async purgeIssuedBefore(issueMs: number): Promise<number> {
    return (await this.collection.deleteMany({ issueMs: { $lt: issueMs } })).deletedCount;
  }

  async newestIssueMs(): Promise<number | undefined> {
    const [doc] = await this.collection
      .find({}, { projection: { issueMs: 1 } })
      .sort({ issueMs: -1 })
      .limit(1)
      .toArray();
    return doc?.issueMs;
  }
}
