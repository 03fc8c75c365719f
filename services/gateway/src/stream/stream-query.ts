import type { BBox } from '@stormhook/geometry';
import { STREAM_KINDS, type StreamKind } from '@stormhook/webhooks/stream-events';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** The `kinds` parameter (its form checked by the schema) as a set; absent means every kind. */
export function parseKinds(raw: string | undefined): Parsed<StreamKind[]> {
  if (raw === undefined) return { ok: true, value: [...STREAM_KINDS] };
  const asked = new Set(raw.split(','));
  const unknown = [...asked].filter((k) => !(STREAM_KINDS as readonly string[]).includes(k));
  if (unknown.length > 0) return { ok: false, message: `kinds must be a comma list of ${STREAM_KINDS.join(', ')} (got ${unknown.join(', ')})` };
  // In the catalogue's order, whatever order the caller wrote them in.
  return { ok: true, value: STREAM_KINDS.filter((k) => asked.has(k)) };
}

/** The `bbox` parameter as a box: four numbers in range, minimum not above maximum; absent means none. */
export function parseBBox(raw: string | undefined): Parsed<BBox | undefined> {
  if (raw === undefined) return { ok: true, value: undefined };
  const numbers = raw.split(',').map(Number);
  if (numbers.length !== 4 || numbers.some((n) => !Number.isFinite(n)))
    return { ok: false, message: 'bbox must be minLng,minLat,maxLng,maxLat (four numbers)' };
  const [minLng, minLat, maxLng, maxLat] = numbers as [number, number, number, number];
  if ([minLng, maxLng].some((lng) => lng < -180 || lng > 180)) return { ok: false, message: 'bbox longitudes must lie within -180 and 180' };
  if ([minLat, maxLat].some((lat) => lat < -90 || lat > 90)) return { ok: false, message: 'bbox latitudes must lie within -90 and 90' };
  if (minLng > maxLng) return { ok: false, message: 'bbox minLng must not be greater than maxLng' };
  if (minLat > maxLat) return { ok: false, message: 'bbox minLat must not be greater than maxLat' };
  return { ok: true, value: { minLng, minLat, maxLng, maxLat } };
}
