import { ringOf, toRings, type AreaIndex } from '@stormhook/access';
import { bboxOfParts, flattenMultiPolygon, type BBox, type MultiPolygon } from '@stormhook/geometry';
import type { commonV1, weatherV1 } from '@stormhook/proto';
import { eventFrameId, sseFrame } from './sse.js';
import { lightningEventJson, precipitationEventJson, thunderstormEventJson } from './stream-json.js';
import type { StreamItem } from './stream-selection.js';

/**
 * Weather events as stream items: tagged with the subscription areas they touch by the rules the
 * query service indexes them by (query domain/event-entries.ts: a rain area by its geometry, a storm
 * by its cell outline and its threat area), a strike by the province it lies in, so a stream shows
 * what the plan's lists show. Without the provinces (not loaded yet) an event touches none and only
 * unrestricted (ADMIN) streams carry it. Undefined for an event with no position at all.
 */

function polygonRings(polygon: commonV1.Polygon | null | undefined): MultiPolygon {
  return polygon?.exterior ? [{ exterior: ringOf(polygon.exterior.points), holes: polygon.holes.map((h) => ringOf(h.points)) }] : [];
}

function shapeItem(kind: StreamItem['kind'], rings: MultiPolygon, areas: AreaIndex | undefined, frame: string): StreamItem | undefined {
  const parts = flattenMultiPolygon(rings);
  if (parts.length === 0) return undefined;
  const bbox = bboxOfParts(parts);
  return { kind, areas: areas ? areas.touched(parts, bbox) : [], bbox, frame };
}

export function lightningItem(e: weatherV1.LightningEvent, areas: AreaIndex | undefined): StreamItem | undefined {
  if (!e.location) return undefined;
  const { lng, lat } = e.location;
  const data = lightningEventJson(e);
  const bbox: BBox = { minLng: lng, minLat: lat, maxLng: lng, maxLat: lat };
  const area = areas?.areaAt(lng, lat);
  return { kind: 'lightning', areas: area ? [area.key] : [], bbox, frame: sseFrame('lightning', data, eventFrameId(data.eventId, data.revision)) };
}

export function thunderstormItem(e: weatherV1.ThunderstormEvent, areas: AreaIndex | undefined): StreamItem | undefined {
  const data = thunderstormEventJson(e);
  const rings = [...polygonRings(e.cell?.polygon), ...polygonRings(e.threatPolygon)];
  return shapeItem('thunderstorm', rings, areas, sseFrame('thunderstorm', data, eventFrameId(data.eventId, data.revision)));
}

export function precipitationItem(e: weatherV1.PrecipitationEvent, areas: AreaIndex | undefined): StreamItem | undefined {
  const data = precipitationEventJson(e);
  return shapeItem('precipitation', toRings(e.geometry), areas, sseFrame('precipitation', data, eventFrameId(data.eventId, data.revision)));
}
