import { kindCode, kindOfCode } from '../domain/kinds.js';
import type { StoredRecord } from '../domain/record.js';
import { ByteReader, ByteWriter } from './byte-io.js';

/**
 * Records kept as their bytes, with kind, ingest time, key and box beside them: the journal (one
 * document per consumed batch, written as it comes) and the chunks of the kinds that are few and
 * large (polygons, forecast chunks), which are compressed whole afterwards.
 *
 *   u8 version | uint count | count x (uint kind, sint ingested - previous, uint shared key prefix,
 *   block key suffix, u8 has box, [4 x f64 box], block value)
 */
const VERSION = 1;

export function encodeRecordBlock(records: readonly StoredRecord[]): Buffer {
  const out = new ByteWriter(records.reduce((n, r) => n + r.value.length + r.key.length + 48, 16));
  out.byte(VERSION);
  out.uint(records.length);
  let prevTime = 0;
  let prevKey = Buffer.alloc(0);
  for (const r of records) {
    out.uint(kindCode(r.kind));
    out.sint(r.ingestedMs - prevTime);
    prevTime = r.ingestedMs;
    const key = Buffer.from(r.key, 'utf8');
    let shared = 0;
    while (shared < key.length && shared < prevKey.length && key[shared] === prevKey[shared]) shared++;
    out.uint(shared);
    out.block(key.subarray(shared));
    prevKey = key;
    if (r.box) {
      out.byte(1);
      out.double(r.box.minLng);
      out.double(r.box.minLat);
      out.double(r.box.maxLng);
      out.double(r.box.maxLat);
    } else out.byte(0);
    out.block(r.value);
  }
  return out.finish();
}

/** The records of a block; values are views into `bytes`. */
export function decodeRecordBlock(bytes: Uint8Array): StoredRecord[] {
  const r = new ByteReader(bytes);
  const version = r.byte();
  if (version !== VERSION) throw new Error(`unknown record block version ${version}`);
  const count = r.uint();
  const records: StoredRecord[] = [];
  let time = 0;
  let prevKey = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const kind = kindOfCode(r.uint());
    time += r.sint();
    const shared = r.uint();
    const key = Buffer.concat([prevKey.subarray(0, shared), r.block()]);
    prevKey = key;
    const box = r.byte() === 1 ? { minLng: r.double(), minLat: r.double(), maxLng: r.double(), maxLat: r.double() } : undefined;
    records.push({ kind, ingestedMs: time, key: key.toString('utf8'), box, value: r.block() });
  }
  return records;
}
