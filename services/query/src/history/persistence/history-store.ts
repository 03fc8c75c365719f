import { Binary, type Db } from 'mongodb';
import { bboxesOverlap, type BBox } from '@stormhook/geometry';
import type { Logger } from '@stormhook/logger';
import { Lru } from '../../persistence/lru.js';
import { cellOf, DAY_MS, dayOf } from '../domain/buckets.js';
import { CoverageIndex, hourMask, type Span } from '../domain/coverage.js';
import { kindCode, type HistoryKind } from '../domain/kinds.js';
import type { StoredRecord } from '../domain/record.js';
import { ByteWriter } from './byte-io.js';
import { decodeChunk, encodeChunk, type ChunkRecords } from './chunk-codec.js';
import { ChunkDocuments, chunkId, CHUNKS_PREFIX, JOURNAL_PREFIX, journalName, type ChunkMeta, type JournalDoc } from './chunk-documents.js';
import { describeRawLightning } from './describe-lightning.js';
import { decodeRecordBlock, encodeRecordBlock } from './record-block.js';

/**
 * The weather history in query's database: every record of the weather topics for the retention,
 * kept as published, findable by time and place.
 *
 * - A consumed batch is inserted as ONE journal document (the batch's records packed) into the
 *   current generation's journal collection, and kept in memory; the consumer commits its offsets
 *   only after that insert. A record whose key (`<eventId>:<revision>`) is in an open journal or the
 *   last compacted one is not written again.
 * - Every `journalMaxRecords` records or `journalMaxAgeMs`, the generation is closed and compacted:
 *   its records grouped by kind, UTC day of ingest and grid cell (domain/buckets.ts), each group
 *   packed into a chunk (strikes as columns, see lightning-block.ts; compressed), chunk data written,
 *   then its manifest document, then the journal collection dropped.
 * - Chunks of one day and cell from successive generations are merged into one (`mergeFanIn` of
 *   them, or all once the day is over), de-duplicating on the key: a merged chunk names the chunks it
 *   replaces, which are deleted after it is complete.
 * - At start the manifest is read whole into memory and the journals not yet compacted are read
 *   back; the leftovers of a write interrupted by a crash are recognised and removed.
 * - Retention drops whole days (manifest documents, then the day's collection); records older than
 *   the cutoff in a younger chunk are skipped when read.
 *
 * A read (recordsOfDay) picks the chunks of its kinds whose times and box meet the window's, fetches
 * them by `_id` (a bounded cache keeps recent ones), and unpacks only the records that fall in it.
 */
export interface HistoryStoreOptions {
  retentionMs: number;
  /** Records after which a journal generation is compacted. */
  journalMaxRecords: number;
  /** Age after which a non-empty journal generation is compacted, ms. */
  journalMaxAgeMs: number;
  /** Compressed chunk data kept in memory for reads, bytes. */
  cacheBytes: number;
  /** Chunks of one day and cell merged once there are this many (all of them once the day is over). Default 8. */
  mergeFanIn?: number;
  logger: Logger;
  now?: () => number;
}

/** The part of a chunk write kept in one document: raw record bytes. */
const PART_BYTES = 4 * 1024 * 1024;
/** A day is merged this long after its end, when late records have stopped coming. */
const MERGE_GRACE_MS = 3_600_000;
/** Chunks of the next days a read starts fetching while it unpacks the current one. */
const READ_AHEAD_CHUNKS = 256;
/**
 * Chunk fetches in flight at once: the database serves a few thousand `_id` reads a second, so the
 * wait of one read is its number of chunks over that rate, not their sum of round trips; more at
 * once would only queue there, ahead of the consumer's writes.
 */
const FETCHES_IN_FLIGHT = 16;

/** At most `size` jobs at once; the rest wait their turn in order. */
class Slots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await job();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}

interface Memtable {
  records: StoredRecord[];
  keys: Set<string>;
  /** Journal inserts in flight; a generation is compacted only when none are. */
  pending: number;
  openedAt: number;
}

export interface HistoryQuery {
  fromMs: number;
  toMs: number;
  box: BBox;
  kinds: ReadonlySet<HistoryKind>;
}

/** A record as a read returns it. */
export interface PageRecord {
  kind: HistoryKind;
  ingestedMs: number;
  value: Uint8Array;
}

export interface HistoryStats {
  chunks: number;
  journalRecords: number;
  /** Chunks reads have fetched from the database (not the cache), and their bytes, since start. */
  fetched: { chunks: number; bytes: number };
  /** Per kind: records in chunks and their packed bytes. */
  kinds: Partial<Record<HistoryKind, { records: number; bytes: number; chunks: number }>>;
}

function byTimeThenKey(a: StoredRecord, b: StoredRecord): number {
  return a.ingestedMs - b.ingestedMs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/** The records once each (first one kept), oldest first. */
function uniqueSorted(records: readonly StoredRecord[]): StoredRecord[] {
  const seen = new Set<string>();
  const out: StoredRecord[] = [];
  for (const r of records) {
    if (seen.has(r.key)) continue;
    seen.add(r.key);
    out.push(r);
  }
  return out.sort(byTimeThenKey);
}

function unionBox(records: readonly StoredRecord[]): BBox | undefined {
  let box: BBox | undefined;
  for (const { box: b } of records) {
    if (!b) continue;
    if (!box) box = { ...b };
    else {
      box.minLng = Math.min(box.minLng, b.minLng);
      box.minLat = Math.min(box.minLat, b.minLat);
      box.maxLng = Math.max(box.maxLng, b.maxLng);
      box.maxLat = Math.max(box.maxLat, b.maxLat);
    }
  }
  return box;
}

/** Splits records (in order) into runs of at most `limit` value bytes (at least one record each). */
function splitBySize<T extends { value: Uint8Array }>(records: readonly T[], limit: number): T[][] {
  const parts: T[][] = [];
  let part: T[] = [];
  let size = 0;
  for (const r of records) {
    if (part.length > 0 && size + r.value.length > limit) {
      parts.push(part);
      part = [];
      size = 0;
    }
    part.push(r);
    size += r.value.length;
  }
  if (part.length > 0) parts.push(part);
  return parts;
}

/** Groups records by kind, day and cell. */
function buckets(records: readonly StoredRecord[]): Map<string, { kind: HistoryKind; day: number; cell: string; records: StoredRecord[] }> {
  const groups = new Map<string, { kind: HistoryKind; day: number; cell: string; records: StoredRecord[] }>();
  for (const r of records) {
    const day = dayOf(r.ingestedMs);
    const cell = cellOf(r.kind, r.box);
    const key = `${r.kind}:${day}:${cell}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { kind: r.kind, day, cell, records: [] }));
    g.records.push(r);
  }
  return groups;
}

/** Packs one kind's records of one day and cell (any order, duplicates allowed) into chunks of write `gen`. */
function pack(kind: HistoryKind, day: number, cell: string, gen: number, records: readonly StoredRecord[], replaces: string[] = []) {
  const parts = splitBySize(uniqueSorted(records), PART_BYTES);
  return parts.map((part, i) => {
    const data = encodeChunk(kind, part);
    const meta: ChunkMeta = {
      id: chunkId(kind, day, cell, gen, i),
      kind,
      day,
      cell,
      gen,
      part: i,
      parts: parts.length,
      count: part.length,
      minMs: part[0]!.ingestedMs,
      maxMs: part[part.length - 1]!.ingestedMs,
      box: unionBox(part),
      hours: hourMask(part.map((r) => r.ingestedMs)),
      bytes: data.length,
      replaces,
    };
    return { meta, data };
  });
}

/** A chunk deleted (merged, expired) between a read's plan and its fetch. */
class ChunkGone extends Error {
  constructor(id: string) {
    super(`history chunk ${id} is gone`);
  }
}

export class HistoryStore {
  private readonly docs: ChunkDocuments;
  private readonly chunks = new Map<string, ChunkMeta>();
  private readonly days = new Map<number, Set<string>>();
  private readonly memtables = new Map<number, Memtable>();
  private readonly coverage = new CoverageIndex();
  private readonly cache: Lru<string, Uint8Array>;
  private readonly fetching = new Map<string, Promise<Uint8Array | undefined>>();
  private readonly fetched = { chunks: 0, bytes: 0 };
  private readonly fetchSlots = new Slots(FETCHES_IN_FLIGHT);
  /** Keys of the generation compacted last: a batch re-delivered just after a compaction is still recognised. */
  private recentKeys = new Set<string>();
  private current = 0;
  private nextGen = 1;
  private rolling: Promise<void> | undefined;
  private readonly now: () => number;
  private readonly fanIn: number;

  constructor(
    db: Db,
    private readonly options: HistoryStoreOptions,
  ) {
    this.docs = new ChunkDocuments(db);
    this.now = options.now ?? Date.now;
    this.fanIn = options.mergeFanIn ?? 8;
    this.cache = new Lru(options.cacheBytes, (data) => data.length);
  }

  /** The oldest time a read returns. */
  retainedFrom(): number {
    return this.now() - this.options.retentionMs;
  }

  private register(meta: ChunkMeta): void {
    this.chunks.set(meta.id, meta);
    let ids = this.days.get(meta.day);
    if (!ids) this.days.set(meta.day, (ids = new Set()));
    ids.add(meta.id);
    this.coverage.addMask(meta.kind, meta.day, meta.hours);
  }

  private unregister(meta: ChunkMeta): void {
    this.chunks.delete(meta.id);
    this.days.get(meta.day)?.delete(meta.id);
  }

  private openMemtable(): void {
    this.current = this.nextGen++;
    this.memtables.set(this.current, { records: [], keys: new Set(), pending: 0, openedAt: this.now() });
  }

  /**
   * Reads the manifest and the journals not yet compacted, and removes what a crash left half
   * written: the chunks of a generation whose journal still exists (it is compacted again), the
   * parts of a write that is not complete, and the chunks a complete merge replaced.
   */
  async load(): Promise<{ chunks: number; journals: number; journalRecords: number; removed: number }> {
    const names = await this.docs.collectionNames();
    const journalGens = names
      .filter((n) => n.startsWith(JOURNAL_PREFIX))
      .map((n) => Number(n.slice(JOURNAL_PREFIX.length)))
      .filter(Number.isInteger)
      .sort((a, b) => a - b);
    const metas = await this.docs.readManifest();
    const doomed = new Map<string, ChunkMeta>();
    const writes = new Map<string, ChunkMeta[]>();
    for (const m of metas) {
      const write = `${m.kind}:${m.day}:${m.cell}:${m.gen}`;
      writes.set(write, [...(writes.get(write) ?? []), m]);
    }
    const open = new Set(journalGens);
    for (const parts of writes.values()) {
      if (parts.length < parts[0]!.parts || open.has(parts[0]!.gen)) for (const m of parts) doomed.set(m.id, m);
    }
    const byId = new Map(metas.map((m) => [m.id, m]));
    for (const m of metas) {
      if (doomed.has(m.id)) continue;
      for (const id of m.replaces) {
        const replaced = byId.get(id);
        if (replaced) doomed.set(id, replaced);
      }
    }
    for (const m of doomed.values()) await this.docs.delete(m);
    let maxGen = Math.max(0, ...journalGens);
    for (const m of metas) {
      maxGen = Math.max(maxGen, m.gen);
      if (!doomed.has(m.id)) this.register(m);
    }
    let journalRecords = 0;
    for (const gen of journalGens) {
      const memtable: Memtable = { records: [], keys: new Set(), pending: 0, openedAt: 0 };
      for await (const doc of this.docs.journal(gen).find({})) {
        for (const r of decodeRecordBlock(doc.d.buffer)) {
          if (memtable.keys.has(r.key)) continue;
          memtable.keys.add(r.key);
          memtable.records.push(r);
          this.coverage.add(r.kind, r.ingestedMs);
        }
      }
      journalRecords += memtable.records.length;
      this.memtables.set(gen, memtable);
    }
    this.nextGen = maxGen + 1;
    this.openMemtable();
    // Days past retention whose drop a crash interrupted, and data of writes that never got a manifest.
    const firstKept = dayOf(this.retainedFrom());
    for (const name of names.filter((n) => n.startsWith(CHUNKS_PREFIX))) {
      const ymd = name.slice(CHUNKS_PREFIX.length);
      const day = dayOf(Date.UTC(Number(ymd.slice(0, 4)), Number(ymd.slice(4, 6)) - 1, Number(ymd.slice(6, 8))));
      if (day < firstKept && !this.days.get(day)?.size) await this.docs.drop(name);
    }
    return { chunks: this.chunks.size, journals: journalGens.length, journalRecords, removed: doomed.size };
  }

  /** Whether a record of this key is held already (in a journal, or compacted a moment ago). */
  private known(key: string): boolean {
    if (this.recentKeys.has(key)) return true;
    for (const m of this.memtables.values()) if (m.keys.has(key)) return true;
    return false;
  }

  /**
   * Makes a consumed batch durable: one journal document (split when it is large), `_id` from the
   * batch's first record, so the same batch retried is not written twice. Resolves once it is.
   */
  async append(records: readonly StoredRecord[], batchId: string): Promise<{ stored: number; duplicates: number }> {
    const fresh: StoredRecord[] = [];
    const keys = new Set<string>();
    for (const r of records) {
      if (keys.has(r.key) || this.known(r.key)) continue;
      keys.add(r.key);
      fresh.push(r);
    }
    if (fresh.length === 0) return { stored: 0, duplicates: records.length };
    const gen = this.current;
    const memtable = this.memtables.get(gen)!;
    memtable.pending++;
    try {
      const docs: JournalDoc[] = splitBySize(fresh, PART_BYTES).map((part, i) => ({ _id: `${batchId}:${i}`, d: new Binary(encodeRecordBlock(part)) }));
      await this.docs.insertJournal(gen, docs);
      for (const r of fresh) {
        memtable.records.push(r);
        memtable.keys.add(r.key);
        this.coverage.add(r.kind, r.ingestedMs);
      }
    } finally {
      memtable.pending--;
    }
    return { stored: fresh.length, duplicates: records.length - fresh.length };
  }

  /**
   * Writes many records straight into chunks, skipping the journal: benchmarks and rebuilds. One
   * write (generation) per call; give each call whole days to keep one chunk per day and cell.
   * Resolves once every chunk is durable.
   */
  async bulkAppend(records: readonly StoredRecord[]): Promise<{ chunks: number }> {
    const gen = this.nextGen++;
    const cutoff = this.retainedFrom();
    let written = 0;
    let batch: Array<{ meta: ChunkMeta; data: Uint8Array }> = [];
    let batchBytes = 0;
    const flush = async () => {
      await this.docs.write(batch);
      for (const c of batch) this.register(c.meta);
      written += batch.length;
      batch = [];
      batchBytes = 0;
    };
    for (const g of buckets(records.filter((r) => r.ingestedMs >= cutoff)).values()) {
      for (const chunk of pack(g.kind, g.day, g.cell, gen, g.records)) {
        batch.push(chunk);
        batchBytes += chunk.data.length;
        if (batchBytes >= 16 * 1024 * 1024 || batch.length >= 200) await flush();
      }
    }
    if (batch.length > 0) await flush();
    return { chunks: written };
  }

  /** Closes the journal generation when full or old (or `force`), compacts closed ones, merges chunks due. One run at a time. */
  roll(force = false): Promise<void> {
    this.rolling ??= this.doRoll(force).finally(() => {
      this.rolling = undefined;
    });
    return this.rolling;
  }

  private async doRoll(force: boolean): Promise<void> {
    const open = this.memtables.get(this.current)!;
    const n = open.records.length;
    if (n >= this.options.journalMaxRecords || (n > 0 && (force || this.now() - open.openedAt >= this.options.journalMaxAgeMs))) this.openMemtable();
    for (const [gen, memtable] of [...this.memtables]) {
      if (gen === this.current || memtable.pending > 0) continue;
      await this.compact(gen, memtable);
      this.memtables.delete(gen);
      this.recentKeys = memtable.keys;
    }
    await this.mergeDue(force);
  }

  private async compact(gen: number, memtable: Memtable): Promise<void> {
    const cutoff = this.retainedFrom();
    const chunks = [...buckets(memtable.records.filter((r) => r.ingestedMs >= cutoff)).values()].flatMap((g) => pack(g.kind, g.day, g.cell, gen, g.records));
    await this.docs.write(chunks);
    for (const c of chunks) this.register(c.meta);
    await this.docs.drop(journalName(gen));
    this.options.logger.debug({ gen, records: memtable.records.length, chunks: chunks.length }, 'history journal compacted');
  }

  /** Merges the chunks of a day and cell when there are `fanIn` of them, or any two once the day is over. */
  private async mergeDue(force: boolean): Promise<void> {
    const groups = new Map<string, ChunkMeta[]>();
    for (const m of this.chunks.values()) {
      const key = `${m.kind}:${m.day}:${m.cell}`;
      groups.set(key, [...(groups.get(key) ?? []), m]);
    }
    const now = this.now();
    for (const group of groups.values()) {
      const first = group[0]!;
      // The parts of one write are one chunk split for size: nothing to merge.
      const writes = new Set(group.map((m) => m.gen)).size;
      if (writes < 2) continue;
      const over = (first.day + 1) * DAY_MS + MERGE_GRACE_MS <= now;
      if (!(force || over || writes >= this.fanIn)) continue;
      const records: StoredRecord[] = [];
      for (const m of group) {
        const data = await this.data(m);
        if (!data) throw new Error(`history chunk ${m.id} has a manifest but no data`);
        for (const r of decodeChunk(data, describeRawLightning).all(m.kind)) records.push(r);
      }
      const merged = pack(
        first.kind,
        first.day,
        first.cell,
        this.nextGen++,
        records,
        group.map((m) => m.id),
      );
      await this.docs.write(merged);
      for (const c of merged) this.register(c.meta);
      for (const m of group) {
        this.unregister(m);
        await this.docs.delete(m);
      }
    }
  }

  /** Deletes the days wholly before the retention cutoff; returns how many chunks went. */
  async expire(): Promise<number> {
    const cutoff = this.retainedFrom();
    let removed = 0;
    for (const [day, ids] of [...this.days]) {
      if ((day + 1) * DAY_MS > cutoff) continue;
      for (const id of [...ids]) {
        const meta = this.chunks.get(id);
        if (!meta) continue;
        this.unregister(meta);
        await this.docs.delete(meta);
        removed++;
      }
      await this.docs.dropDay(day);
      this.days.delete(day);
    }
    this.coverage.dropBefore(dayOf(cutoff));
    return removed;
  }

  /** A chunk's data: from the cache, from a fetch already under way, or fetched now by `_id`. */
  private data(meta: ChunkMeta): Promise<Uint8Array | undefined> {
    const cached = this.cache.get(meta.id);
    if (cached) return Promise.resolve(cached);
    let fetching = this.fetching.get(meta.id);
    if (!fetching) {
      fetching = this.fetchSlots
        .run(() => this.docs.data(meta))
        .then(
          (data) => {
            this.fetching.delete(meta.id);
            this.fetched.chunks++;
            this.fetched.bytes += data?.length ?? 0;
            if (data) this.cache.set(meta.id, data);
            return data;
          },
          (error: unknown) => {
            this.fetching.delete(meta.id);
            throw error;
          },
        );
      this.fetching.set(meta.id, fetching);
    }
    return fetching;
  }

  /** Starts fetching the chunks of the days a read goes on to, while it unpacks the current one. */
  private readAhead(q: HistoryQuery, days: readonly number[], from: number): void {
    let budget = READ_AHEAD_CHUNKS;
    for (const day of days) {
      for (const m of this.chunkCandidates(q, day, from)) {
        if (budget-- <= 0) return;
        // Failures surface when the read itself asks for the chunk.
        this.data(m).catch(() => undefined);
      }
    }
  }

  /** The hours with records of `kind` anywhere, within [fromMs, toMs) and retention. */
  coverageOf(kind: HistoryKind, fromMs: number, toMs: number): Span[] {
    return this.coverage.spans(kind, Math.max(fromMs, this.retainedFrom()), toMs);
  }

  private chunkCandidates(q: HistoryQuery, day: number, fromMs: number): ChunkMeta[] {
    const out: ChunkMeta[] = [];
    for (const id of this.days.get(day) ?? []) {
      const m = this.chunks.get(id)!;
      if (q.kinds.has(m.kind) && m.maxMs >= fromMs && m.minMs < q.toMs && m.box !== undefined && bboxesOverlap(m.box, q.box)) out.push(m);
    }
    return out;
  }

  private journalCandidates(q: HistoryQuery, fromMs: number, day?: number): StoredRecord[] {
    const out: StoredRecord[] = [];
    for (const m of this.memtables.values()) {
      for (const r of m.records) {
        if (!q.kinds.has(r.kind) || r.ingestedMs < fromMs || r.ingestedMs >= q.toMs || !r.box || !bboxesOverlap(r.box, q.box)) continue;
        if (day === undefined || dayOf(r.ingestedMs) === day) out.push(r);
      }
    }
    return out;
  }

  /** The days, oldest first, that may hold records of the query from `fromMs` on. */
  daysOf(q: HistoryQuery, fromMs: number): number[] {
    const from = Math.max(q.fromMs, fromMs, this.retainedFrom());
    const days = new Set<number>();
    for (const day of this.days.keys()) {
      if (day < dayOf(from) || day * DAY_MS >= q.toMs) continue;
      if (this.chunkCandidates(q, day, from).length > 0) days.add(day);
    }
    for (const r of this.journalCandidates(q, from)) days.add(dayOf(r.ingestedMs));
    return [...days].sort((a, b) => a - b);
  }

  /**
   * The records of one day matching the query from `fromMs` on, oldest first (ties by kind, then by
   * bytes, so every read orders them alike). Records held twice (a chunk and a journal, two chunks
   * of a day and cell not merged yet) come once.
   */
  async recordsOfDay(q: HistoryQuery, day: number, fromMs: number, ahead: readonly number[] = []): Promise<PageRecord[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.tryRecordsOfDay(q, day, fromMs, ahead);
      } catch (error) {
        // A merge or retention deleted a chunk between planning and fetching: plan again.
        if (!(error instanceof ChunkGone) || attempt >= 3) throw error;
      }
    }
  }

  private async tryRecordsOfDay(q: HistoryQuery, day: number, fromMs: number, ahead: readonly number[]): Promise<PageRecord[]> {
    const from = Math.max(q.fromMs, fromMs, this.retainedFrom());
    const metas = this.chunkCandidates(q, day, from);
    for (const m of metas) this.data(m).catch(() => undefined);
    this.readAhead(q, ahead, from);
    const journal = this.journalCandidates(q, from, day);
    // Writes per kind and cell (the journal is one): a record can be held twice only where there are two.
    const writes = new Map<string, Set<number>>();
    const noteWrite = (cell: string, gen: number) => {
      let gens = writes.get(cell);
      if (!gens) writes.set(cell, (gens = new Set()));
      gens.add(gen);
    };
    for (const m of metas) noteWrite(`${m.kind}:${m.cell}`, m.gen);
    for (const r of journal) noteWrite(`${r.kind}:${cellOf(r.kind, r.box)}`, -1);
    const datas = await Promise.all(
      metas.map(async (m) => {
        const data = await this.data(m);
        if (!data) throw new ChunkGone(m.id);
        return data;
      }),
    );
    const out = new ByteWriter(64 * 1024);
    const found: Array<{ kind: HistoryKind; t: number; start: number; end: number }> = [];
    const seen = new Set<string>();
    metas.forEach((m, n) => {
      const chunk: ChunkRecords = decodeChunk(datas[n]!, describeRawLightning);
      const dedupe = (writes.get(`${m.kind}:${m.cell}`)?.size ?? 0) > 1;
      for (let i = 0; i < chunk.count; i++) {
        const t = chunk.ingestedAt(i);
        if (t < from || t >= q.toMs || !chunk.touches(i, q.box)) continue;
        if (dedupe) {
          const key = `${m.kind}:${chunk.key(i)}`;
          if (seen.has(key)) continue;
          seen.add(key);
        }
        const start = out.length;
        chunk.writeValue(i, out);
        found.push({ kind: m.kind, t, start, end: out.length });
      }
    });
    for (const r of journal) {
      const key = `${r.kind}:${r.key}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const start = out.length;
      out.bytes(r.value);
      found.push({ kind: r.kind, t: r.ingestedMs, start, end: out.length });
    }
    const bytes = out.finish();
    const records = found.map((f) => ({ kind: f.kind, ingestedMs: f.t, value: bytes.subarray(f.start, f.end) }));
    return records.sort((a, b) => a.ingestedMs - b.ingestedMs || kindCode(a.kind) - kindCode(b.kind) || Buffer.compare(a.value, b.value));
  }

  stats(): HistoryStats {
    const kinds: HistoryStats['kinds'] = {};
    for (const m of this.chunks.values()) {
      const k = (kinds[m.kind] ??= { records: 0, bytes: 0, chunks: 0 });
      k.records += m.count;
      k.bytes += m.bytes;
      k.chunks++;
    }
    let journalRecords = 0;
    for (const m of this.memtables.values()) journalRecords += m.records.length;
    return { chunks: this.chunks.size, journalRecords, fetched: { ...this.fetched }, kinds };
  }
}
