import type { MultiPolygon, Position, Ring } from '@stormhook/geometry';

/** The webhook's point shape (incumbent: `{lng, lat}` objects). */
export function pointJson([lng, lat]: Position): { lng: number; lat: number } {
  return { lng, lat };
}

function ringJson(ring: Ring): Array<{ lng: number; lat: number }> {
  return ring.map(pointJson);
}

type PolygonJson = { exterior: Array<{ lng: number; lat: number }>; holes: Array<Array<{ lng: number; lat: number }>> };

/**
 * Outlines already turned into the webhook's shape, per multipolygon: one storm revision reaches
 * thousands of registrations with the same outline, and each payload would otherwise build its own
 * copy. Payloads are never mutated after they are built, so they may share it.
 */
const converted = new WeakMap<MultiPolygon, PolygonJson | null>();

/** The webhook's polygon shape: `{exterior: [{lng, lat}], holes: [[{lng, lat}]]}`, first part of a multipolygon. */
export function polygonJson(multi: MultiPolygon): PolygonJson | null {
  const held = converted.get(multi);
  if (held !== undefined) return held;
  const part = multi[0];
  const json = part ? { exterior: ringJson(part.exterior), holes: part.holes.map(ringJson) } : null;
  converted.set(multi, json);
  return json;
}
