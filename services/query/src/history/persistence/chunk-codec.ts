import { brotliCompressSync, brotliDecompressSync, constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import { bboxContains, bboxesOverlap, type BBox } from '@stormhook/geometry';
import type { HistoryKind } from '../domain/kinds.js';
import type { StoredRecord } from '../domain/record.js';
import { ByteWriter } from './byte-io.js';
import { decodeLightningBlock, encodeLightningBlock, type DescribeRaw } from './lightning-block.js';
import { decodeRecordBlock, encodeRecordBlock } from './record-block.js';

/**
 * A chunk's bytes: one kind's records of one day and cell, oldest first, packed (strikes as
 * columns, other kinds as their bytes) and compressed.
 *
 *   u8 layout (1 strike columns, 2 record block) | u8 compression (1 deflate, 2 brotli) | body
 */
const LAYOUT_LIGHTNING = 1;
const LAYOUT_RECORDS = 2;
const DEFLATE = 1;
const BROTLI = 2;

/** Brotli packs the columns about a fifth smaller than deflate and unpacks about as fast; compaction is rare, reads are not. */
const COMPRESSION: number = BROTLI;

function compress(body: Buffer): Buffer {
  if (COMPRESSION === BROTLI) {
    return brotliCompressSync(body, {
      // A window no larger than the body: most chunks are tens of kilobytes, and a 4 MiB window per call costs more than it finds.
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        [constants.BROTLI_PARAM_LGWIN]: Math.min(22, Math.max(16, Math.ceil(Math.log2(body.length + 1)))),
      },
    });
  }
  return deflateRawSync(body, { level: 9 });
}

/** Packs records of one kind sorted by ingest time. */
export function encodeChunk(kind: HistoryKind, records: readonly StoredRecord[]): Buffer {
  const layout = kind === 'LIGHTNING' ? LAYOUT_LIGHTNING : LAYOUT_RECORDS;
  const body = layout === LAYOUT_LIGHTNING ? encodeLightningBlock(records) : encodeRecordBlock(records);
  return Buffer.concat([Buffer.from([layout, COMPRESSION]), compress(body)]);
}

/** The records of a chunk as a read walks them: filter on time and place first, bytes only for those kept. */
export interface ChunkRecords {
  readonly count: number;
  ingestedAt(i: number): number;
  touches(i: number, box: BBox): boolean;
  key(i: number): string;
  writeValue(i: number, out: ByteWriter): void;
  /** Every record whole (compaction merges). */
  all(kind: HistoryKind): StoredRecord[];
}

export function decodeChunk(data: Uint8Array, describeRaw: DescribeRaw): ChunkRecords {
  const layout = data[0];
  const compression = data[1];
  const packed = data.subarray(2);
  const body = compression === BROTLI ? brotliDecompressSync(packed) : compression === DEFLATE ? inflateRawSync(packed) : undefined;
  if (!body) throw new Error(`unknown chunk compression ${compression}`);
  if (layout === LAYOUT_LIGHTNING) {
    const c = decodeLightningBlock(body, describeRaw);
    return {
      count: c.count,
      ingestedAt: (i) => c.ingested[i]!,
      touches: (i, box) => bboxContains(box, c.lng[i]!, c.lat[i]!),
      key: (i) => c.key(i),
      writeValue: (i, out) => c.writeValue(i, out),
      all(kind) {
        const out: StoredRecord[] = [];
        for (let i = 0; i < c.count; i++) {
          const w = new ByteWriter(128);
          c.writeValue(i, w);
          const lng = c.lng[i]!;
          const lat = c.lat[i]!;
          const box = Number.isNaN(lng) || Number.isNaN(lat) ? undefined : { minLng: lng, minLat: lat, maxLng: lng, maxLat: lat };
          out.push({ kind, ingestedMs: c.ingested[i]!, key: c.key(i), box, value: w.finish() });
        }
        return out;
      },
    };
  }
  if (layout !== LAYOUT_RECORDS) throw new Error(`unknown chunk layout ${layout}`);
  const records = decodeRecordBlock(body);
  return {
    count: records.length,
    ingestedAt: (i) => records[i]!.ingestedMs,
    touches: (i, box) => {
      const own = records[i]!.box;
      return own !== undefined && bboxesOverlap(own, box);
    },
    key: (i) => records[i]!.key,
    writeValue: (i, out) => out.bytes(records[i]!.value),
    all: () => records,
  };
}
