import type { BBox, MultiPolygon } from '@stormhook/geometry';
import type { commonV1, weatherV1 } from '@stormhook/proto';
import type { AreaIndex } from '@stormhook/access';
import { ringOf, toRings } from '@stormhook/access';
import { bboxOfParts, flattenMultiPolygon } from '@stormhook/geometry';
import { FLAG_FORECAST, type IndexEntry } from '../read-models/entry.js';
import { intensityRank, severityRank } from './ranks.js';

/** Why an event cannot be indexed; the consumer dead-letters it with this text. */
export class UnindexableEvent extends Error {
  override readonly name = 'UnindexableEvent';
}

function revisionOf(event: { eventId: string; revision?: weatherV1.EventRevision | null }): number {
  if (!event.eventId) throw new UnindexableEvent('event_id is empty');
  const revision = event.revision?.revision ?? 0;
  if (!Number.isInteger(revision) || revision < 1) throw new UnindexableEvent(`revision.revision must be 1 or more (got ${revision})`);
  return revision;
}

function boxOf(box: weatherV1.BoundingBox | null | undefined, fallback: () => BBox): BBox {
  return box && box.maxLng >= box.minLng && box.maxLat >= box.minLat && (box.maxLng !== 0 || box.minLng !== 0) ? { ...box } : fallback();
}

export function precipitationRings(event: weatherV1.PrecipitationEvent): MultiPolygon {
  return toRings(event.geometry);
}

function polygonRings(polygon: commonV1.Polygon | null | undefined): MultiPolygon {
  return polygon?.exterior ? [{ exterior: ringOf(polygon.exterior.points), holes: polygon.holes.map((h) => ringOf(h.points)) }] : [];
}

/** The cell outline and the threat area: what a subscription area must touch to see the storm. */
export function thunderstormRings(event: weatherV1.ThunderstormEvent): MultiPolygon {
  return [...polygonRings(event.cell?.polygon), ...polygonRings(event.threatPolygon)];
}

/** The index entry of a precipitation event, tagged with the subscription areas it touches. */
export function precipitationEntry(event: weatherV1.PrecipitationEvent, areas: AreaIndex): IndexEntry {
  const revision = revisionOf(event);
  const rank = intensityRank(event.intensity);
  if (rank < 1) throw new UnindexableEvent('intensity is unspecified');
  const parts = flattenMultiPolygon(precipitationRings(event));
  if (parts.length === 0) throw new UnindexableEvent('geometry has no polygon');
  const bbox = boxOf(event.bbox, () => bboxOfParts(parts));
  return {
    eventId: event.eventId,
    revision,
    time: event.radarTimestampEpochMs,
    startTime: event.radarTimestampEpochMs,
    rank,
    flags: event.forecast ? FLAG_FORECAST : 0,
    bbox,
    areas: areas.touched(parts, bboxOfParts(parts)),
  };
}

/** The index entry of a thunderstorm: sorted by its end, overlapping windows by start and end. */
export function thunderstormEntry(event: weatherV1.ThunderstormEvent, areas: AreaIndex): IndexEntry {
  const revision = revisionOf(event);
  const parts = flattenMultiPolygon(thunderstormRings(event));
  if (parts.length === 0) throw new UnindexableEvent('cell.polygon and threat_polygon are both missing');
  if (event.endEpochMs < event.startEpochMs) throw new UnindexableEvent('end_epoch_ms is before start_epoch_ms');
  return {
    eventId: event.eventId,
    revision,
    time: event.endEpochMs,
    startTime: event.startEpochMs,
    rank: severityRank(event.severity),
    flags: 0,
    bbox: boxOf(event.bbox, () => bboxOfParts(parts)),
    areas: areas.touched(parts, bboxOfParts(parts)),
  };
}
