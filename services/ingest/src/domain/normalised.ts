import type { BBox } from '@stormhook/geometry';
import type { weatherV1 } from '@stormhook/proto';
import type { LngLat } from './geo/types.js';

/** The four feeds, named after their topics (feed.<kind>.v1 -> weather.<kind>.v1). */
export const FEED_KINDS = ['precipitation', 'lightning', 'thunderstorm', 'forecast'] as const;
export type FeedKind = (typeof FEED_KINDS)[number];

/** A weather event before ingest assigns its revision. */
export type EventBody<T> = Omit<T, 'revision'>;

/** What every normalised record says about its source, for de-duplication and clean-up. */
export interface SourceInfo {
  /** De-duplication key within the feed: the source event id, or run id + "#" + chunk index. */
  sourceId: string;
  /** The publisher's version (0 = not versioned). */
  version: number;
  /** The publisher's last-change time (0 = not given). */
  updatedEpochMs: number;
  /** The time that decides when the record is too old to matter (and its seen-entry can go). */
  eventTimeEpochMs: number;
}

export type NormalisedRecord =
  | (SourceInfo & { feed: 'precipitation'; events: Array<EventBody<weatherV1.PrecipitationEvent>> })
  | (SourceInfo & { feed: 'lightning'; events: Array<EventBody<weatherV1.LightningEvent>> })
  | (SourceInfo & { feed: 'thunderstorm'; events: Array<EventBody<weatherV1.ThunderstormEvent>> })
  | (SourceInfo & { feed: 'forecast'; events: Array<EventBody<weatherV1.ForecastEvent>> });

export function toBoundingBox(box: BBox): weatherV1.BoundingBox {
  return { minLng: box.minLng, minLat: box.minLat, maxLng: box.maxLng, maxLat: box.maxLat };
}

export function toGeoPoint(p: LngLat): { lng: number; lat: number } {
  return { lng: p.lng, lat: p.lat };
}
