import type { FeedKind } from '../domain/normalised.js';
import { seenKeyId, type BatchSeenStore, type SeenKey, type SeenRecord } from './seen-store.js';

/** In-memory SeenStore for unit tests; same conditional semantics as the database one. */
export class MemorySeenStore implements BatchSeenStore {
  readonly entries = new Map<string, SeenRecord>();

  /** Calls per operation, so tests can see what was batched. */
  readonly calls = { find: 0, insert: 0, replace: 0, findMany: 0, insertMany: 0, findSince: 0 };

  private id(key: SeenKey): string {
    return seenKeyId(key);
  }

  async find(key: SeenKey): Promise<SeenRecord | null> {
    this.calls.find++;
    const found = this.entries.get(this.id(key));
    return found ? { ...found } : null;
  }

  async insert(key: SeenKey, record: SeenRecord): Promise<boolean> {
    this.calls.insert++;
    if (this.entries.has(this.id(key))) return false;
    this.entries.set(this.id(key), { ...record });
    return true;
  }

  async replace(key: SeenKey, expectedRevision: number, record: SeenRecord): Promise<boolean> {
    this.calls.replace++;
    const current = this.entries.get(this.id(key));
    if (!current || current.revision !== expectedRevision) return false;
    this.entries.set(this.id(key), { ...record });
    return true;
  }

  async findMany(keys: readonly SeenKey[]): Promise<Array<SeenRecord | null>> {
    this.calls.findMany++;
    return keys.map((key) => {
      const found = this.entries.get(this.id(key));
      return found ? { ...found } : null;
    });
  }

  async insertMany(items: ReadonlyArray<{ key: SeenKey; record: SeenRecord }>): Promise<boolean[]> {
    this.calls.insertMany++;
    return items.map(({ key, record }) => {
      if (this.entries.has(this.id(key))) return false;
      this.entries.set(this.id(key), { ...record });
      return true;
    });
  }

  async findSince(feed: FeedKind, epochMs: number): Promise<Array<{ key: SeenKey; record: SeenRecord }>> {
    this.calls.findSince++;
    return [...this.entries]
      .filter(([id, record]) => id.startsWith(`${feed}:`) && record.eventTimeEpochMs >= epochMs)
      .map(([id, record]) => ({ key: { feed, sourceId: id.slice(feed.length + 1) }, record: { ...record } }));
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
