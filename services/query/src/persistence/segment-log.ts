import { Binary, type Db } from 'mongodb';
import type { Logger } from '@stormhook/logger';
import { isDuplicateKeyError } from '@stormhook/mongo';

/**
 * The durable copy of a list index, shaped for how FerretDB 1.24 on SQLite performs: inserts are
 * cheap, updates are slow and not atomic, and reading documents one by one runs at a few thousand
 * per second, so a million small documents would take minutes to load at start.
 *
 * - Every accepted entry is inserted into the current JOURNAL collection
 *   (`<name>_journal_<generation>`, `_id` = `<eventId>:<revision>`, so a re-delivered event
 *   inserts nothing).
 * - When a journal has enough entries (or is old enough) the service starts the next generation
 *   and writes the previous one as an immutable SEGMENT: its entries packed in a few binary
 *   documents of `<name>_segments`, then a manifest document, then it drops the journal.
 * - At start the service reads every segment and every journal not yet compacted, then keeps the
 *   highest revision of each event (the order of generations does not matter).
 * - Retention deletes whole segments once their newest entry is past the cutoff; entries past it
 *   in younger segments are skipped at load.
 *
 * Nothing is ever updated in place.
 */

const CHUNK_ENTRIES = 10_000;

/** What the log needs to know of an entry: who it is (the journal document id) and its time (retention, segment bounds). */
export interface LoggedEntry {
  readonly eventId: string;
  readonly revision: number;
  readonly time: number;
}

/**
 * How a batch of entries becomes bytes and back. The read model that owns the entries supplies it,
 * so the log stores any entry without knowing its fields.
 */
export interface EntryCodec<E> {
  encode(entries: readonly E[]): Uint8Array;
  decode(bytes: Uint8Array, visit: (entry: E) => void): void;
}

interface Memtable<E> {
  entries: E[];
  /** Inserts still in flight; a generation is compacted only when none are. */
  pending: number;
  openedAt: number;
}

interface SegmentInfo {
  chunks: number;
  minTime: number;
  maxTime: number;
}

export interface SegmentLogOptions<E> {
  /** The entries' binary form. */
  codec: EntryCodec<E>;
  /** Entries after which a journal is compacted. */
  maxEntries: number;
  /** Age after which a non-empty journal is compacted, in ms. */
  maxAgeMs: number;
  logger: Logger;
  now?: () => number;
}

const pad = (gen: number) => String(gen).padStart(10, '0');

export class SegmentLog<E extends LoggedEntry> {
  private readonly memtables = new Map<number, Memtable<E>>();
  private readonly segments = new Map<number, SegmentInfo>();
  private current = 1;
  private rolling: Promise<void> | undefined;
  private readonly now: () => number;

  constructor(
    private readonly db: Db,
    readonly name: string,
    private readonly options: SegmentLogOptions<E>,
  ) {
    this.now = options.now ?? Date.now;
  }

  private journalName(gen: number): string {
    return `${this.name}_journal_${pad(gen)}`;
  }

  private get segmentCollection() {
    return this.db.collection<{ _id: string; gen: number; chunk?: number; data?: Binary; chunks?: number; minTime?: number; maxTime?: number }>(
      `${this.name}_segments`,
    );
  }

  /** Reads segments and journals, calling `visit` for every entry whose time is at least `cutoff`. */
  async load(cutoff: number, visit: (entry: E) => void): Promise<{ segments: number; journals: number; entries: number }> {
    let entries = 0;
    const keep = (entry: E) => {
      if (entry.time < cutoff) return;
      entries++;
      visit(entry);
    };
    const chunks = new Map<number, Map<number, Binary>>();
    for await (const doc of this.segmentCollection.find({})) {
      if (doc.chunks !== undefined) {
        this.segments.set(doc.gen, { chunks: doc.chunks, minTime: doc.minTime ?? 0, maxTime: doc.maxTime ?? 0 });
      } else if (doc.data !== undefined && doc.chunk !== undefined) {
        let byChunk = chunks.get(doc.gen);
        if (!byChunk) chunks.set(doc.gen, (byChunk = new Map()));
        byChunk.set(doc.chunk, doc.data);
      }
    }
    for (const [gen, byChunk] of chunks) {
      const info = this.segments.get(gen);
      if (!info) {
        // Written by a compaction that died before its manifest: the journal is still there.
        await this.segmentCollection.deleteMany({ gen });
        continue;
      }
      for (const data of byChunk.values()) this.options.codec.decode(data.buffer, keep);
    }
    let maxGen = Math.max(0, ...this.segments.keys());
    let journals = 0;
    const prefix = `${this.name}_journal_`;
    const names = (await this.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).filter((n) => n.startsWith(prefix));
    for (const collection of names.sort()) {
      const gen = Number(collection.slice(prefix.length));
      if (!Number.isInteger(gen)) continue;
      maxGen = Math.max(maxGen, gen);
      if (this.segments.has(gen)) {
        await this.db.collection(collection).drop(); // compacted; the drop was interrupted
        continue;
      }
      journals++;
      const memtable: Memtable<E> = { entries: [], pending: 0, openedAt: 0 };
      for await (const doc of this.db.collection<{ _id: string; d: Binary }>(collection).find({})) {
        this.options.codec.decode(doc.d.buffer, (entry) => {
          memtable.entries.push(entry);
          keep(entry);
        });
      }
      this.memtables.set(gen, memtable);
    }
    this.current = maxGen + 1;
    this.memtables.set(this.current, { entries: [], pending: 0, openedAt: this.now() });
    return { segments: this.segments.size, journals, entries };
  }

  /** Makes `entry` durable in the current journal; a re-sent entry is a no-op. */
  async append(entry: E): Promise<void> {
    const gen = this.current;
    const memtable = this.memtables.get(gen)!;
    memtable.pending++;
    try {
      await this.db
        .collection<{ _id: string; d: Binary }>(this.journalName(gen))
        .insertOne({ _id: `${entry.eventId}:${entry.revision}`, d: new Binary(this.options.codec.encode([entry])) });
      memtable.entries.push(entry);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    } finally {
      memtable.pending--;
    }
  }

  /** Starts a new journal when the current one is full or old, and compacts closed journals. */
  roll(force = false): Promise<void> {
    this.rolling ??= this.doRoll(force).finally(() => {
      this.rolling = undefined;
    });
    return this.rolling;
  }

  private async doRoll(force: boolean): Promise<void> {
    const open = this.memtables.get(this.current)!;
    const due = open.entries.length >= this.options.maxEntries || (open.entries.length > 0 && (force || this.now() - open.openedAt >= this.options.maxAgeMs));
    if (due) {
      this.current++;
      this.memtables.set(this.current, { entries: [], pending: 0, openedAt: this.now() });
    }
    for (const [gen, memtable] of [...this.memtables]) {
      if (gen === this.current || memtable.pending > 0) continue;
      await this.compact(gen, memtable.entries);
      this.memtables.delete(gen);
    }
  }

  private async compact(gen: number, entries: E[]): Promise<void> {
    if (entries.length > 0) {
      await this.segmentCollection.deleteMany({ gen }); // leftovers of an interrupted attempt
      const docs = [];
      for (let i = 0; i < entries.length; i += CHUNK_ENTRIES) {
        const chunk = entries.slice(i, i + CHUNK_ENTRIES);
        docs.push({ _id: `${pad(gen)}:${String(docs.length).padStart(5, '0')}`, gen, chunk: docs.length, data: new Binary(this.options.codec.encode(chunk)) });
      }
      await this.segmentCollection.insertMany(docs);
      let minTime = Infinity;
      let maxTime = -Infinity;
      for (const e of entries) {
        minTime = Math.min(minTime, e.time);
        maxTime = Math.max(maxTime, e.time);
      }
      // The manifest comes last: a segment without one does not exist.
      await this.segmentCollection.insertOne({ _id: `${pad(gen)}:manifest`, gen, chunks: docs.length, minTime, maxTime });
      this.segments.set(gen, { chunks: docs.length, minTime, maxTime });
    }
    await this.db
      .collection(this.journalName(gen))
      .drop()
      .catch((error: unknown) => {
        // Never written to (no collection): nothing to drop.
        if ((error as { code?: unknown }).code !== 26) throw error;
      });
    this.options.logger.debug({ log: this.name, gen, entries: entries.length }, 'journal compacted into a segment');
  }

  /**
   * Writes `entries` straight into a new segment, skipping the journal: bulk loads (rebuilds, the
   * benchmark). Only before the first append of this process, so no journal insert is in flight.
   */
  async importSegment(entries: E[]): Promise<void> {
    const open = this.memtables.get(this.current);
    if (!open || open.entries.length > 0 || open.pending > 0) throw new Error('importSegment must run before any append');
    const gen = this.current;
    this.memtables.delete(gen);
    this.current++;
    this.memtables.set(this.current, { entries: [], pending: 0, openedAt: this.now() });
    await this.compact(gen, entries);
  }

  /** Deletes the segments whose newest entry is older than `cutoff`; returns how many. */
  async expire(cutoff: number): Promise<number> {
    let removed = 0;
    for (const [gen, info] of [...this.segments]) {
      if (info.maxTime >= cutoff) continue;
      // Manifest first: without it the chunks are ignored (and cleaned) at the next start.
      await this.segmentCollection.deleteOne({ _id: `${pad(gen)}:manifest` });
      for (let c = 0; c < info.chunks; c++) await this.segmentCollection.deleteOne({ _id: `${pad(gen)}:${String(c).padStart(5, '0')}` });
      this.segments.delete(gen);
      removed++;
    }
    return removed;
  }

  /** Counts for health and tests. */
  stats(): { generation: number; segments: number; journalEntries: number } {
    let journalEntries = 0;
    for (const m of this.memtables.values()) journalEntries += m.entries.length;
    return { generation: this.current, segments: this.segments.size, journalEntries };
  }
}
