import type { Area } from '../domain/area.js';
import type { ImportReport } from './import-report.js';

export interface HashedArea {
  readonly area: Area;
  readonly contentHash: string;
}

/** What the import needs from persistence (implemented by AreaRepository). */
export interface BoundaryStore {
  /** Content hash of every stored area, keyed by `level:id` (see areaKey). */
  contentHashes(): Promise<Map<string, string>>;
  /**
   * Inserts or replaces areas by (level, id). `existing` holds the keys known to be stored (from
   * contentHashes), so that new areas can be inserted without a lookup.
   */
  upsertAreas(items: readonly HashedArea[], existing: ReadonlySet<string>): Promise<void>;
  recordImportRun(report: ImportReport): Promise<void>;
}
