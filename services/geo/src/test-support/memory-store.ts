import { areaKey } from '../domain/area.js';
import type { BoundaryStore, HashedArea } from '../import/boundary-store.js';
import type { ImportReport } from '../import/import-report.js';

/** An in-memory BoundaryStore (our own port) for unit tests of the import. */
export class MemoryBoundaryStore implements BoundaryStore {
  readonly areas = new Map<string, HashedArea>();
  readonly runs: ImportReport[] = [];
  writes = 0;

  async contentHashes(): Promise<Map<string, string>> {
    return new Map([...this.areas].map(([key, item]) => [key, item.contentHash]));
  }

  async upsertAreas(items: readonly HashedArea[]): Promise<void> {
    this.writes++;
    for (const item of items) this.areas.set(areaKey(item.area), item);
  }

  async recordImportRun(report: ImportReport): Promise<void> {
    this.runs.push(report);
  }
}
