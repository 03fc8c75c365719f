import { Binary, type Collection, type Db } from 'mongodb';
import type { BBox } from '@stormhook/geometry';
import { isDuplicateKeyError } from '@stormhook/mongo';
import { dayName } from '../domain/buckets.js';
import { kindCode, kindOfCode, type HistoryKind } from '../domain/kinds.js';

/**
 * The documents of the history in query's database, shaped for FerretDB 1.24 on SQLite (see
 * segment-log.ts): nothing is updated, everything is read by `_id` or whole, and what expires goes
 * as whole collections.
 *
 * - `history_journal_<generation>`: one document per consumed batch (records packed, uncompressed),
 *   dropped once the generation is compacted.
 * - `history_chunks_<yyyymmdd>`: the compacted chunks of one UTC day of ingest time, `_id` = chunk
 *   id, `d` = packed and compressed records; dropped whole by retention.
 * - `history_manifest`: one small document per chunk (kind, day, cell, times, box, hours, count,
 *   bytes), written after the chunk's data and read whole at start, so a read fetches by `_id` only
 *   the chunks that can hold records of its window and box.
 */
export const MANIFEST = 'history_manifest';
export const JOURNAL_PREFIX = 'history_journal_';
export const CHUNKS_PREFIX = 'history_chunks_';

export interface ChunkMeta {
  id: string;
  kind: HistoryKind;
  day: number;
  cell: string;
  /** The write that made it: a journal generation, a merge or a bulk load. */
  gen: number;
  /** Part `part` of `parts` of that write for this day and cell (a write is split to keep documents small). */
  part: number;
  parts: number;
  count: number;
  minMs: number;
  maxMs: number;
  /** Union of the records' boxes; undefined when none has a location. */
  box: BBox | undefined;
  /** Bit h: a record in hour h of the day. */
  hours: number;
  /** Size of the packed data, bytes. */
  bytes: number;
  /** Chunks this one replaces (a merge), deleted once it is complete. */
  replaces: string[];
}

interface ManifestDoc {
  _id: string;
  k: number;
  day: number;
  cell: string;
  gen: number;
  part: number;
  parts: number;
  n: number;
  min: number;
  max: number;
  box: number[] | null;
  h: number;
  b: number;
  r?: string[];
}

interface DataDoc {
  _id: string;
  d: Binary;
}

export interface JournalDoc {
  _id: string;
  d: Binary;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

export function chunkId(kind: HistoryKind, day: number, cell: string, gen: number, part: number): string {
  return `${kindCode(kind)}:${day}:${cell}:${pad(gen, 10)}:${pad(part, 3)}`;
}

export function journalName(gen: number): string {
  return `${JOURNAL_PREFIX}${pad(gen, 10)}`;
}

function toDoc(m: ChunkMeta): ManifestDoc {
  return {
    _id: m.id,
    k: kindCode(m.kind),
    day: m.day,
    cell: m.cell,
    gen: m.gen,
    part: m.part,
    parts: m.parts,
    n: m.count,
    min: m.minMs,
    max: m.maxMs,
    box: m.box ? [m.box.minLng, m.box.minLat, m.box.maxLng, m.box.maxLat] : null,
    h: m.hours,
    b: m.bytes,
    ...(m.replaces.length > 0 ? { r: m.replaces } : {}),
  };
}

function fromDoc(d: ManifestDoc): ChunkMeta {
  const b = d.box;
  return {
    id: d._id,
    kind: kindOfCode(d.k),
    day: d.day,
    cell: d.cell,
    gen: d.gen,
    part: d.part,
    parts: d.parts,
    count: d.n,
    minMs: d.min,
    maxMs: d.max,
    box: b && b.length === 4 ? { minLng: b[0]!, minLat: b[1]!, maxLng: b[2]!, maxLat: b[3]! } : undefined,
    hours: d.h,
    bytes: d.b,
    replaces: d.r ?? [],
  };
}

/**
 * Inserts `docs`; one already there (a write repeated after a crash or a timeout) is left as it is
 * (`onDuplicate: 'keep'`, same content by construction) or replaced (`'replace'`).
 */
async function insertAll<T extends { _id: string }>(collection: Collection<T>, docs: readonly T[], onDuplicate: 'keep' | 'replace'): Promise<void> {
  if (docs.length === 0) return;
  try {
    await collection.insertMany(docs as never[], { ordered: false });
    return;
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
  for (const doc of docs) {
    try {
      await collection.insertOne(doc as never);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      if (onDuplicate === 'replace') {
        await collection.deleteOne({ _id: doc._id } as never);
        await collection.insertOne(doc as never);
      }
    }
  }
}

const NAMESPACE_NOT_FOUND = 26;

export class ChunkDocuments {
  constructor(private readonly db: Db) {}

  private manifest(): Collection<ManifestDoc> {
    return this.db.collection<ManifestDoc>(MANIFEST);
  }

  private dataOf(day: number): Collection<DataDoc> {
    return this.db.collection<DataDoc>(`${CHUNKS_PREFIX}${dayName(day)}`);
  }

  journal(gen: number): Collection<JournalDoc> {
    return this.db.collection<JournalDoc>(journalName(gen));
  }

  async collectionNames(): Promise<string[]> {
    return (await this.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  }

  async readManifest(): Promise<ChunkMeta[]> {
    return (await this.manifest().find({}).toArray()).map(fromDoc);
  }

  /** Data first, manifest last: a chunk without its manifest document does not exist. */
  async write(chunks: ReadonlyArray<{ meta: ChunkMeta; data: Uint8Array }>): Promise<void> {
    const byDay = new Map<number, DataDoc[]>();
    for (const { meta, data } of chunks) {
      let docs = byDay.get(meta.day);
      if (!docs) byDay.set(meta.day, (docs = []));
      docs.push({ _id: meta.id, d: new Binary(data) });
    }
    for (const [day, docs] of byDay) {
      // A few documents a call: each may be megabytes.
      for (let i = 0; i < docs.length; i += 16) await insertAll(this.dataOf(day), docs.slice(i, i + 16), 'replace');
    }
    const metas = chunks.map((c) => toDoc(c.meta));
    for (let i = 0; i < metas.length; i += 500) await insertAll(this.manifest(), metas.slice(i, i + 500), 'replace');
  }

  async data(meta: ChunkMeta): Promise<Uint8Array | undefined> {
    const doc = await this.dataOf(meta.day).findOne({ _id: meta.id });
    return doc?.d.buffer;
  }

  /** Manifest first: data left behind by a crash is never read and goes with its day. */
  async delete(meta: ChunkMeta): Promise<void> {
    await this.manifest().deleteOne({ _id: meta.id });
    await this.dataOf(meta.day).deleteOne({ _id: meta.id });
  }

  async dropDay(day: number): Promise<void> {
    await this.drop(`${CHUNKS_PREFIX}${dayName(day)}`);
  }

  async drop(name: string): Promise<void> {
    await this.db
      .collection(name)
      .drop()
      .catch((error: unknown) => {
        // Never written to (no collection): nothing to drop.
        if ((error as { code?: unknown }).code !== NAMESPACE_NOT_FOUND) throw error;
      });
  }

  async insertJournal(gen: number, docs: readonly JournalDoc[]): Promise<void> {
    await insertAll(this.journal(gen), docs, 'keep');
  }
}
