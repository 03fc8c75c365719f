import type { SeenRecord } from './seen-store.js';

export type ViewAnswer = { kind: 'known'; record: SeenRecord } | { kind: 'absent' } | { kind: 'ask-database' };

/**
 * One feed's recent de-duplication entries in memory, bounded, and complete above a horizon: once
 * loaded, it holds every entry of the feed whose event time is at or after `horizon` (the load read
 * them, this process wrote the later ones, and evicting an entry raises the horizon past it). So a
 * key it does not hold is known to be absent when any earlier revision of it would lie above the
 * horizon too, which for a lightning strike (a re-send carries the strike's own time) is true for
 * every fresh record. The database then sees no look-up for a new strike at all.
 */
export class SeenView {
  private readonly entries = new Map<string, SeenRecord>();
  /** Keys someone else wrote behind the view's back (a refused write): the database answers for them. */
  private readonly doubtful = new Set<string>();
  /** Event time from which the view is complete; +Infinity until loaded (nothing trusted). */
  private horizon = Number.POSITIVE_INFINITY;

  /**
   * @param capacity entries kept at most
   * @param absenceSpanMs how far before a record's event time an earlier revision of the same source
   *   id may lie; absence is trusted only when that whole span is above the horizon. Undefined: never.
   */
  constructor(
    private readonly capacity: number,
    private readonly absenceSpanMs: number | undefined,
  ) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new Error(`seen-view capacity must be a non-negative integer, got ${capacity}`);
  }

  get size(): number {
    return this.entries.size;
  }

  get loaded(): boolean {
    return this.horizon !== Number.POSITIVE_INFINITY;
  }

  /** Needs a load first: absence is worth knowing only for feeds that trust it. */
  get wantsLoad(): boolean {
    return !this.loaded && this.absenceSpanMs !== undefined && this.capacity > 0;
  }

  lookup(id: string, eventTimeEpochMs: number): ViewAnswer {
    const found = this.entries.get(id);
    if (found !== undefined) {
      // Most recent last: eviction takes the least recently used.
      this.entries.delete(id);
      this.entries.set(id, found);
      return { kind: 'known', record: { ...found } };
    }
    if (this.doubtful.has(id)) return { kind: 'ask-database' };
    if (this.absenceSpanMs !== undefined && eventTimeEpochMs - this.absenceSpanMs >= this.horizon) return { kind: 'absent' };
    return { kind: 'ask-database' };
  }

  /**
   * Takes the entries the database holds from `horizon` on. Entries written meanwhile by this process
   * are newer and win. More than the capacity keeps the most recent by event time.
   */
  load(horizon: number, loaded: ReadonlyArray<{ id: string; record: SeenRecord }>): void {
    const fresh = loaded.filter(({ id }) => !this.entries.has(id)).sort((a, b) => a.record.eventTimeEpochMs - b.record.eventTimeEpochMs);
    this.horizon = horizon;
    const room = Math.max(0, this.capacity - this.entries.size);
    const dropped = fresh.slice(0, Math.max(0, fresh.length - room));
    for (const { record } of dropped) this.raiseHorizonPast(record);
    for (const { id, record } of fresh.slice(dropped.length)) this.entries.set(id, { ...record });
  }

  set(id: string, record: SeenRecord): void {
    if (this.capacity === 0) return;
    this.doubtful.delete(id);
    this.entries.delete(id);
    this.entries.set(id, { ...record });
    while (this.entries.size > this.capacity) {
      const [oldestId, oldest] = this.entries.entries().next().value as [string, SeenRecord];
      this.entries.delete(oldestId);
      this.raiseHorizonPast(oldest);
    }
  }

  /** The entry changed in the database behind the view (a refused write): ask the database for it. */
  distrust(id: string): void {
    this.entries.delete(id);
    this.doubtful.add(id);
    // Many such keys: another process writes this feed; start over from the database.
    if (this.doubtful.size > Math.max(1_000, this.capacity / 10)) this.clear();
  }

  /** Mirrors the database purge. */
  deleteBefore(eventTimeEpochMs: number): void {
    for (const [id, record] of this.entries) if (record.eventTimeEpochMs < eventTimeEpochMs) this.entries.delete(id);
  }

  /** Forgets everything, the horizon included (a rebalance: other processes may have written). */
  clear(): void {
    this.entries.clear();
    this.doubtful.clear();
    this.horizon = Number.POSITIVE_INFINITY;
  }

  private raiseHorizonPast(record: SeenRecord): void {
    if (this.loaded) this.horizon = Math.max(this.horizon, record.eventTimeEpochMs + 1);
  }
}
