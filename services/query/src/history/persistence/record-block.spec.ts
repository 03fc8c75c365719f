import assert from 'node:assert/strict';
import type { StoredRecord } from '../domain/record.js';
import { decodeChunk, encodeChunk } from './chunk-codec.js';
import { describeRawLightning } from './describe-lightning.js';
import { ByteWriter } from './byte-io.js';
import { decodeRecordBlock, encodeRecordBlock } from './record-block.js';

const records: StoredRecord[] = [
  {
    kind: 'PRECIPITATION',
    ingestedMs: 1_700_000_000_500,
    key: 'prc_a:1',
    box: { minLng: 30, minLat: 38, maxLng: 30.4, maxLat: 38.2 },
    value: Buffer.from('first'),
  },
  { kind: 'FORECAST', ingestedMs: 1_700_000_000_100, key: 'fct_b:2', box: undefined, value: Buffer.alloc(0) },
  {
    kind: 'THUNDERSTORM',
    ingestedMs: 1_700_000_009_000,
    key: 'tst_c:1',
    box: { minLng: -1, minLat: -2, maxLng: 3, maxLat: 4 },
    value: Buffer.from([0, 1, 2, 255]),
  },
];

describe('the record block (journal documents, polygon chunks)', () => {
  it('gives back kinds, times in any order, keys, boxes and values', () => {
    const back = decodeRecordBlock(encodeRecordBlock(records));
    assert.deepEqual(
      back.map((r) => ({ ...r, value: Buffer.from(r.value) })),
      records.map((r) => ({ ...r, value: Buffer.from(r.value) })),
    );
  });

  it('compresses a chunk of one kind and filters it by box', () => {
    const polygons = records.filter((r) => r.kind === 'PRECIPITATION');
    const chunk = decodeChunk(encodeChunk('PRECIPITATION', polygons), describeRawLightning);
    assert.equal(chunk.count, 1);
    assert.ok(chunk.touches(0, { minLng: 30.3, minLat: 38.1, maxLng: 31, maxLat: 39 }));
    assert.ok(!chunk.touches(0, { minLng: 30.5, minLat: 38.1, maxLng: 31, maxLat: 39 }));
    const out = new ByteWriter();
    chunk.writeValue(0, out);
    assert.equal(out.finish().toString(), 'first');
  });
});
