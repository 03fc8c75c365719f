import type { SeenKey, SeenRecord, SeenStore } from './seen-store.js';

/** In-memory SeenStore for unit tests; same conditional semantics as the database one. */
export class MemorySeenStore implements SeenStore {
  readonly entries = new Map<string, SeenRecord>();

  private id(key: SeenKey): string {
    return `${key.feed}:${key.sourceId}`;
  }

  async find(key: SeenKey): Promise<SeenRecord | null> {
    const found = this.entries.get(this.id(key));
    return found ? { ...found } : null;
  }

  async insert(key: SeenKey, record: SeenRecord): Promise<boolean> {
    if (this.entries.has(this.id(key))) return false;
    this.entries.set(this.id(key), { ...record });
    return true;
  }

  async replace(key: SeenKey, expectedRevision: number, record: SeenRecord): Promise<boolean> {
    const current = this.entries.get(this.id(key));
    if (!current || current.revision !== expectedRevision) return false;
    this.entries.set(this.id(key), { ...record });
    return true;
  }

  async purgeBefore(epochMs: number): Promise<number> {
    let removed = 0;
    for (const [id, record] of this.entries) {
      if (record.eventTimeEpochMs < epochMs) {
        this.entries.delete(id);
        removed++;
      }
    }
    return removed;
  }
}
