import type { BBox } from '@stormhook/geometry';
import type { EntryCodec } from '../persistence/segment-log.js';

/**
 * What the list indexes keep of one event: enough to filter, sort and page without touching the
 * database. The geometry and the full record stay in the database (see PayloadStore).
 */
export interface IndexEntry {
  /** Public event id (prc_..., tst_...). */
  eventId: string;
  /** Ingest's revision; the highest one wins. */
  revision: number;
  /** Sort and retention time, epoch ms: the radar time of a precipitation, the end of a thunderstorm. */
  time: number;
  /** Second time, epoch ms: the start of a thunderstorm; equal to `time` for a precipitation. */
  startTime: number;
  /** Intensity rank (1 DRIZZLE .. 6 EXTREME) or severity rank (1 LOW .. 3 HIGH). */
  rank: number;
  /** Bit 0: forecast (nowcast) precipitation. */
  flags: number;
  /** Box of the whole geometry, decimal degrees. */
  bbox: BBox;
  /** Subscription areas the geometry touches, as area keys `<country>:<city id>`. */
  areas: string[];
}

export const FLAG_FORECAST = 1;

/**
 * Binary form of a block of entries (one journal document holds a block of one; a segment holds
 * thousands). Area keys are written once per block in a table, entries refer to them by position.
 *
 *   u8 version(1) | u16 areaCount | areaCount x (u8 len, utf8) | u32 entryCount |
 *   entryCount x (u8 idLen, utf8 id, u32 revision, f64 time, f64 startTime, u8 rank, u8 flags,
 *                 4 x f64 bbox, u8 areaRefs, areaRefs x u16)
 */
const VERSION = 1;

export function encodeEntries(entries: readonly IndexEntry[]): Buffer {
  const table = new Map<string, number>();
  for (const e of entries) for (const a of e.areas) if (!table.has(a)) table.set(a, table.size);
  const keys = [...table.keys()].map((k) => Buffer.from(k, 'utf8'));
  const ids = entries.map((e) => Buffer.from(e.eventId, 'utf8'));
  let size = 1 + 2 + keys.reduce((n, k) => n + 1 + k.length, 0) + 4;
  entries.forEach((e, i) => {
    size += 1 + ids[i]!.length + 4 + 8 + 8 + 1 + 1 + 32 + 1 + 2 * e.areas.length;
  });
  const out = Buffer.allocUnsafe(size);
  let o = 0;
  o = out.writeUInt8(VERSION, o);
  o = out.writeUInt16LE(keys.length, o);
  for (const k of keys) {
    o = out.writeUInt8(k.length, o);
    o += k.copy(out, o);
  }
  o = out.writeUInt32LE(entries.length, o);
  entries.forEach((e, i) => {
    const id = ids[i]!;
    if (id.length > 255) throw new Error(`event id too long: ${e.eventId}`);
    o = out.writeUInt8(id.length, o);
    o += id.copy(out, o);
    o = out.writeUInt32LE(e.revision >>> 0, o);
    o = out.writeDoubleLE(e.time, o);
    o = out.writeDoubleLE(e.startTime, o);
    o = out.writeUInt8(e.rank, o);
    o = out.writeUInt8(e.flags, o);
    o = out.writeDoubleLE(e.bbox.minLng, o);
    o = out.writeDoubleLE(e.bbox.minLat, o);
    o = out.writeDoubleLE(e.bbox.maxLng, o);
    o = out.writeDoubleLE(e.bbox.maxLat, o);
    o = out.writeUInt8(e.areas.length, o);
    for (const a of e.areas) o = out.writeUInt16LE(table.get(a)!, o);
  });
  return out;
}

export function decodeEntries(bytes: Uint8Array, visit: (entry: IndexEntry) => void): void {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let o = 0;
  const version = buf.readUInt8(o);
  o += 1;
  if (version !== VERSION) throw new Error(`unknown index entry block version ${version}`);
  const keyCount = buf.readUInt16LE(o);
  o += 2;
  const keys: string[] = [];
  for (let i = 0; i < keyCount; i++) {
    const len = buf.readUInt8(o);
    o += 1;
    keys.push(buf.toString('utf8', o, o + len));
    o += len;
  }
  const count = buf.readUInt32LE(o);
  o += 4;
  for (let i = 0; i < count; i++) {
    const len = buf.readUInt8(o);
    o += 1;
    const eventId = buf.toString('utf8', o, o + len);
    o += len;
    const revision = buf.readUInt32LE(o);
    const time = buf.readDoubleLE(o + 4);
    const startTime = buf.readDoubleLE(o + 12);
    const rank = buf.readUInt8(o + 20);
    const flags = buf.readUInt8(o + 21);
    const bbox = { minLng: buf.readDoubleLE(o + 22), minLat: buf.readDoubleLE(o + 30), maxLng: buf.readDoubleLE(o + 38), maxLat: buf.readDoubleLE(o + 46) };
    o += 54;
    const areaCount = buf.readUInt8(o);
    o += 1;
    const areas: string[] = [];
    for (let a = 0; a < areaCount; a++) {
      areas.push(keys[buf.readUInt16LE(o)]!);
      o += 2;
    }
    visit({ eventId, revision, time, startTime, rank, flags, bbox, areas });
  }
}

/** The index entries' binary form, for the segment log that journals them. */
export const INDEX_ENTRY_CODEC: EntryCodec<IndexEntry> = { encode: encodeEntries, decode: decodeEntries };
