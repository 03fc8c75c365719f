import type { MultiPolygon, Position, Ring } from '@stormhook/geometry';

/** The webhook's point shape (incumbent: `{lng, lat}` objects). */
export function pointJson([lng, lat]: Position): { lng: number; lat: number } {
  return { lng, lat };
}

function ringJson(ring: Ring): Array<{ lng: number; lat: number }> {
  return ring.map(pointJson);
}

/** The webhook's polygon shape: `{exterior: [{lng, lat}], holes: [[{lng, lat}]]}`, first part of a multipolygon. */
export function polygonJson(multi: MultiPolygon): { exterior: Array<{ lng: number; lat: number }>; holes: Array<Array<{ lng: number; lat: number }>> } | null {
  const part = multi[0];
  if (!part) return null;
  return { exterior: ringJson(part.exterior), holes: part.holes.map(ringJson) };
}
