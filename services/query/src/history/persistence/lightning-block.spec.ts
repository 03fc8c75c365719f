import assert from 'node:assert/strict';
import { weatherV1, type DeepPartial } from '@stormhook/proto';
import { ByteWriter } from './byte-io.js';
import { decodeChunk, encodeChunk } from './chunk-codec.js';
import { describeRawLightning, lightningRecord } from './describe-lightning.js';
import { decodeLightningBlock, encodeLightningBlock } from './lightning-block.js';

const T0 = Date.UTC(2026, 6, 14, 13, 0, 0);

function strike(n: number, overrides: DeepPartial<weatherV1.LightningEvent> = {}): Uint8Array {
  const time = T0 + n * 1_700;
  return weatherV1.LightningEvent.encode(
    weatherV1.LightningEvent.create({
      eventId: `ltg_sim7-c${40 + (n % 3)}-f${Math.floor(time / 10_000)}-${n % 5}`,
      sourceEventId: `sim7-c${40 + (n % 3)}-f${Math.floor(time / 10_000)}-${n % 5}`,
      revision: { revision: 1, sourceVersion: 0, sourceUpdatedEpochMs: 0, ingestedEpochMs: time + 900 + (n % 7) },
      areaKey: 'sxk',
      timeEpochMs: time,
      type: n % 4 === 0 ? 'LIGHTNING_TYPE_FLASH_IN_CLOUD' : 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND',
      location: { lng: Math.round((32.5 + ((n * 37) % 100) / 1000) * 1e5) / 1e5, lat: Math.round((39.9 + ((n * 53) % 100) / 1000) * 1e5) / 1e5 },
      peakCurrentAmperes: (n % 2 === 0 ? -1 : 1) * (12_000 + ((n * 7919) % 40_000)),
      ...(n % 4 === 0 ? { inCloudHeightM: 7_000 + ((n * 13) % 3_000) } : {}),
      multiplicity: 1 + (n % 4),
      ...overrides,
    }),
  );
}

function roundTrip(values: Uint8Array[]) {
  const records = values.map((v) => lightningRecord(v, 0)).sort((a, b) => a.ingestedMs - b.ingestedMs);
  const block = decodeLightningBlock(encodeLightningBlock(records), describeRawLightning);
  const back = records.map((_, i) => {
    const out = new ByteWriter(64);
    block.writeValue(i, out);
    return out.finish();
  });
  return { records, block, back };
}

describe('the strike columns (lightning block)', () => {
  it('gives every strike back byte for byte, with its ingest time, point and key', () => {
    const values = Array.from({ length: 500 }, (_, n) => strike(n));
    const { records, block, back } = roundTrip(values);
    assert.equal(block.count, 500);
    records.forEach((r, i) => {
      assert.deepEqual(Buffer.from(back[i]!), Buffer.from(r.value), `strike ${i}`);
      assert.equal(block.ingested[i], r.ingestedMs);
      assert.equal(block.lng[i], r.box!.minLng);
      assert.equal(block.lat[i], r.box!.minLat);
      assert.equal(block.key(i), r.key);
    });
    const decoded = weatherV1.LightningEvent.decode(back[0]!);
    assert.match(decoded.eventId, /^ltg_sim7-c4\d-f\d+-\d$/);
  });

  it('keeps values its columns cannot hold as they are: more digits, -0, an unknown field, an id not made of the source id', () => {
    const values = [
      strike(1, { location: { lng: 32.123456789012, lat: 39.98765432101 } }),
      strike(2, { peakCurrentAmperes: -0 }),
      Buffer.concat([strike(3), Buffer.from([0x78, 0x05])]), // field 15, varint 5: not in LightningEvent
      strike(4, { eventId: 'ltg_other', sourceEventId: 'x1' }),
      strike(5, { revision: null, location: null }),
      strike(6, { inCloudHeightM: 1.5e-7 }),
    ];
    const { records, back } = roundTrip(values);
    records.forEach((r, i) => assert.deepEqual(Buffer.from(back[i]!), Buffer.from(r.value), `value ${i}`));
  });

  it("packs a storm cell's strikes into well under 40 bytes each", () => {
    const records = Array.from({ length: 5_000 }, (_, n) => lightningRecord(strike(n), 0)).sort((a, b) => a.ingestedMs - b.ingestedMs);
    const data = encodeChunk('LIGHTNING', records);
    const perStrike = data.length / records.length;
    assert.ok(perStrike < 40, `${perStrike.toFixed(1)} bytes per strike`);
    const chunk = decodeChunk(data, describeRawLightning);
    const out = new ByteWriter(64);
    chunk.writeValue(4_321, out);
    assert.deepEqual(Buffer.from(out.finish()), Buffer.from(records[4_321]!.value));
  });

  it('refuses records out of ingest order', () => {
    const a = lightningRecord(strike(1), 0);
    const b = lightningRecord(strike(2), 0);
    assert.throws(() => encodeLightningBlock([b, a]), /ingest order/);
  });
});
