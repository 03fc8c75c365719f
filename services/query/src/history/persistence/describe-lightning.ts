import { weatherV1 } from '@stormhook/proto';
import { storedRecord, type StoredRecord } from '../domain/record.js';
import type { DescribeRaw } from './lightning-block.js';
import { parseLightning, PRESENT } from './lightning-wire.js';

const utf8 = new TextDecoder();

/**
 * A strike's record straight from its bytes: the wire reader when it can (a fraction of the cost of
 * a full decode, which matters for the millions of a bulk load), the generated decoder otherwise.
 */
export function lightningRecord(value: Uint8Array, recordTimeMs: number): StoredRecord {
  const w = parseLightning(value);
  if (!w) return storedRecord('LIGHTNING', weatherV1.LightningEvent.decode(value), value, recordTimeMs);
  const located = (w.presence & PRESENT.locationMessage) !== 0;
  return {
    kind: 'LIGHTNING',
    ingestedMs: w.ingestedMs || recordTimeMs,
    key: `${utf8.decode(w.eventId)}:${w.revision}`,
    box: located ? { minLng: w.lng, minLat: w.lat, maxLng: w.lng, maxLat: w.lat } : undefined,
    value,
  };
}

/** What a chunk read needs of a strike the columns could not hold. */
export const describeRawLightning: DescribeRaw = (raw) => {
  const record = lightningRecord(raw, 0);
  return { key: record.key, lng: record.box?.minLng ?? Number.NaN, lat: record.box?.minLat ?? Number.NaN };
};
