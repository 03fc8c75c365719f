import type { Logger } from '@stormhook/logger';
import { ensureIndexes, isDuplicateKeyError, type IndexSpec } from '@stormhook/mongo';
import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import { areaKey, type Area } from '../domain/area.js';
import type { BoundaryStore, HashedArea } from '../import/boundary-store.js';
import type { ImportReport } from '../import/import-report.js';
import { fromDocument, toDocumentFields, type AreaDocument } from './area-document.js';
import { importRunDocument, type ImportRunDocument } from './import-run-document.js';

/** Collection names: renaming one needs a data migration. */
export const AREAS_COLLECTION = 'areas';
export const IMPORT_RUNS_COLLECTION = 'importRuns';

const AREA_INDEXES: readonly IndexSpec[] = [{ name: 'level_id_unique', key: { level: 1, id: 1 }, unique: true }];
const IMPORT_RUN_INDEXES: readonly IndexSpec[] = [{ name: 'startedAt', key: { startedAt: -1 } }];

/** Areas and import runs in the geo database. */
export class AreaRepository implements BoundaryStore {
  private constructor(
    private readonly areas: Collection<AreaDocument>,
    private readonly runs: Collection<ImportRunDocument>,
    private readonly logger?: Logger,
  ) {}

  /** Opens the collections and creates their indexes (a no-op when they exist). */
  static async open(db: Db, logger?: Logger): Promise<AreaRepository> {
    const areas = db.collection<AreaDocument>(AREAS_COLLECTION);
    const runs = db.collection<ImportRunDocument>(IMPORT_RUNS_COLLECTION);
    await ensureIndexes(areas, AREA_INDEXES);
    await ensureIndexes(runs, IMPORT_RUN_INDEXES);
    return new AreaRepository(areas, runs, logger);
  }

  /** Every stored area, for building the in-memory index. A corrupt document is skipped and logged. */
  async loadAll(): Promise<Area[]> {
    const docs = await this.areas.find({}, { projection: { _id: 0, contentHash: 0, createdAt: 0, updatedAt: 0 } }).toArray();
    const areas: Area[] = [];
    for (const doc of docs) {
      const area = fromDocument(doc);
      if (typeof area === 'string') this.logger?.error({ level: doc.level, id: doc.id, reason: area }, 'stored area skipped');
      else areas.push(area);
    }
    return areas;
  }

  async contentHashes(): Promise<Map<string, string>> {
    const docs = await this.areas.find({}, { projection: { _id: 0, level: 1, id: 1, contentHash: 1 } }).toArray();
    return new Map(docs.map((d) => [areaKey(d), d.contentHash]));
  }

  /**
   * Writes areas keyed by _id = `level:id`. FerretDB on SQLite answers an upsert with a scan of
   * the collection unless the filter is on _id, and these documents are large, so: new areas go in
   * with one insertMany, changed ones are replaced by _id. Two imports running at once can both
   * insert the same new area; the loser's duplicates then become replacements of what the winner
   * wrote (same content), which keeps the operation idempotent.
   */
  async upsertAreas(items: readonly HashedArea[], existing?: ReadonlySet<string>): Promise<void> {
    if (items.length === 0) return;
    const now = new Date();
    const fresh = items.filter((i) => !existing?.has(areaKey(i.area)));
    const changed = items.filter((i) => existing?.has(areaKey(i.area)));
    if (fresh.length > 0) {
      try {
        await this.areas.insertMany(
          fresh.map(({ area, contentHash }) => ({ ...toDocumentFields(area, contentHash), createdAt: now, updatedAt: now })),
          { ordered: false },
        );
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        changed.push(...fresh);
      }
    }
    if (changed.length > 0) await this.replace(changed, now);
  }

  private async replace(items: readonly HashedArea[], now: Date): Promise<void> {
    const ops: AnyBulkWriteOperation<AreaDocument>[] = items.map(({ area, contentHash }) => {
      const { _id, ...fields } = toDocumentFields(area, contentHash);
      return {
        updateOne: {
          filter: { _id },
          update: { $set: { ...fields, updatedAt: now }, $setOnInsert: { createdAt: now } },
          upsert: true,
        },
      };
    });
    await this.areas.bulkWrite(ops, { ordered: false });
  }

  async recordImportRun(report: ImportReport): Promise<void> {
    await this.runs.insertOne(importRunDocument(report, new Date()));
  }

  /** The most recent import runs, newest first. */
  async recentImportRuns(limit = 10): Promise<ImportRunDocument[]> {
    return this.runs
      .find({}, { projection: { _id: 0 } })
      .sort({ startedAt: -1 })
      .limit(limit)
      .toArray();
  }

  async count(): Promise<number> {
    return this.areas.countDocuments();
  }
}
