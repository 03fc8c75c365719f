import { emptyBBox, type BBox } from '@stormhook/geometry';
import type { commonV1, weatherV1 } from '@stormhook/proto';
import type { HistoryKind } from './kinds.js';

/**
 * One record of the history: the value exactly as published on its weather topic, with what the
 * history sorts, finds and de-duplicates it by.
 */
export interface StoredRecord {
  kind: HistoryKind;
  /** EventRevision.ingested_epoch_ms (the Kafka record time when ingest left it out): the order of records. */
  ingestedMs: number;
  /** `<eventId>:<revision>`: a record delivered twice is kept once. */
  key: string;
  /** Where it is: a strike's point, a polygon's or forecast chunk's box; undefined when it has no location. */
  box: BBox | undefined;
  value: Uint8Array;
}

/** The decoded weather event of each kind. */
export interface KindMessages {
  LIGHTNING: weatherV1.LightningEvent;
  THUNDERSTORM: weatherV1.ThunderstormEvent;
  PRECIPITATION: weatherV1.PrecipitationEvent;
  FORECAST: weatherV1.ForecastEvent;
}

function grow(box: BBox, points: readonly commonV1.GeoPoint[] | undefined): void {
  for (const { lng, lat } of points ?? []) {
    if (lng < box.minLng) box.minLng = lng;
    if (lng > box.maxLng) box.maxLng = lng;
    if (lat < box.minLat) box.minLat = lat;
    if (lat > box.maxLat) box.maxLat = lat;
  }
}

function orNone(box: BBox): BBox | undefined {
  return Number.isFinite(box.minLng) && Number.isFinite(box.minLat) && Number.isFinite(box.maxLng) && Number.isFinite(box.maxLat) ? box : undefined;
}

function fromBoxField(box: weatherV1.BoundingBox | null | undefined): BBox | undefined {
  if (!box || (box.minLng === 0 && box.maxLng === 0 && box.minLat === 0 && box.maxLat === 0)) return undefined;
  return orNone({ ...box });
}

function pointBox(point: commonV1.GeoPoint | null | undefined): BBox | undefined {
  return point ? orNone({ minLng: point.lng, minLat: point.lat, maxLng: point.lng, maxLat: point.lat }) : undefined;
}

/**
 * The spatial key of an event: the point of a strike; the box of a thunderstorm's cell polygon and
 * threat area together, of a precipitation's geometry, of a forecast chunk's cells. Exteriors are
 * enough (holes lie inside them); the event's own box or centroid stands in when it has no shape.
 */
export function spatialKey<K extends HistoryKind>(kind: K, message: KindMessages[K]): BBox | undefined {
  const box = emptyBBox();
  switch (kind) {
    case 'LIGHTNING':
      return pointBox((message as weatherV1.LightningEvent).location);
    case 'THUNDERSTORM': {
      const m = message as weatherV1.ThunderstormEvent;
      grow(box, m.cell?.polygon?.exterior?.points);
      grow(box, m.threatPolygon?.exterior?.points);
      return orNone(box) ?? fromBoxField(m.bbox) ?? pointBox(m.cell?.centroid);
    }
    case 'PRECIPITATION': {
      const m = message as weatherV1.PrecipitationEvent;
      for (const polygon of m.geometry?.polygons ?? []) grow(box, polygon.exterior?.points);
      return orNone(box) ?? fromBoxField(m.bbox) ?? pointBox(m.centroid);
    }
    case 'FORECAST': {
      const m = message as weatherV1.ForecastEvent;
      for (const cell of m.cells) if (cell.location) grow(box, [cell.location]);
      return orNone(box);
    }
  }
  return undefined;
}

/** The history's record of a decoded event and its bytes; `recordTimeMs` stands in for a missing ingest time. */
export function storedRecord<K extends HistoryKind>(kind: K, message: KindMessages[K], value: Uint8Array, recordTimeMs: number): StoredRecord {
  const revision = message.revision;
  const ingestedMs = revision?.ingestedEpochMs || recordTimeMs;
  return { kind, ingestedMs, key: `${message.eventId}:${revision?.revision ?? 0}`, box: spatialKey(kind, message), value };
}
