/** A longitude/latitude box in decimal degrees (the shape of @stormhook/geometry's BBox). */
export interface AreaBox {
  readonly minLng: number;
  readonly minLat: number;
  readonly maxLng: number;
  readonly maxLat: number;
}

/**
 * The covered area: Turkey (land 25.7 to 44.8 E, 35.8 to 42.1 N) and Northern Cyprus (32.6 to 34.6 E)
 * with a margin for coastal waters. Alarms live here: the alarm-matcher's grid spans it, a point
 * alarm's centre must lie in it, and the public API documents it for point alarms. Changing it
 * changes which registrations are accepted.
 */
export const COVERED_AREA = { minLng: 24, minLat: 33, maxLng: 46, maxLat: 44 } as const satisfies AreaBox;

/**
 * The feed area: where ingest accepts weather by default (INGEST_COVERAGE_BBOX; the feed contract,
 * proto/stormhook/feed/v1/FEEDS.md, states it). It is wider than the covered area on purpose: a storm
 * outside it can still reach an alarm within the longest approach lead (60 minutes), so it must be
 * kept; a record wholly outside is no use to anyone. It must contain the covered area (a spec holds
 * that), or ingest would drop weather the matcher could match.
 */
export const FEED_AREA = { minLng: 23, minLat: 32, maxLng: 48, maxLat: 45 } as const satisfies AreaBox;

/**
 * Turkey's land extent, tight: inside it (and outside Cyprus) local time is Europe/Istanbul even
 * where simplified province outlines miss a coastal strip.
 */
export const TURKEY_EXTENT = { minLng: 25.6, minLat: 35.8, maxLng: 44.85, maxLat: 42.15 } as const satisfies AreaBox;

/** Whether the point lies in the box, edges included. */
export function inArea(area: AreaBox, lng: number, lat: number): boolean {
  return lng >= area.minLng && lng <= area.maxLng && lat >= area.minLat && lat <= area.maxLat;
}

/** `minLng,minLat,maxLng,maxLat`, the form the config variables take. */
export function areaText(area: AreaBox): string {
  return `${area.minLng},${area.minLat},${area.maxLng},${area.maxLat}`;
}
