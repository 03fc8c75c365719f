import { expandBBox, type BBox } from '@stormhook/geometry';
import type { RealtimeRegistration } from '../../domain/registration.js';
import type { WatchedArea } from '../../matching/registration-index.js';
import { HORIZON_MIN } from '../../motion/projection.js';
import { MAX_PLAUSIBLE_SPEED_KMH } from '../../motion/resolve-motion.js';
import type { HistoryKind } from '../../ports/weather-history.js';

/** One read of the history: the kinds that share a reach, and the box they are read in. */
export interface KindRead {
  kinds: HistoryKind[];
  box: BBox;
}

/**
 * A storm's first revision after it left the area ends its alarm (LEFT_AREA): the feed scans every
 * few minutes, so that revision lies within this many minutes at the fastest plausible speed.
 */
const REVISION_GAP_MIN = 15;

function reachM(minutes: number): number {
  return (minutes / 60) * MAX_PLAUSIBLE_SPEED_KMH * 1000;
}

/**
 * What a real-time filter reads and how far beyond its area: lightning in the area and its approach
 * ring; storms and rain areas within a revision's travel of the area (to see them leave) or, with a
 * warning stage, within the prediction horizon's travel (the approach is judged, and withdrawn, while
 * the event is that far out).
 */
export function realtimeReads(registration: RealtimeRegistration, area: WatchedArea): KindRead[] {
  const { filter } = registration;
  const reads: KindRead[] = [];
  if (filter.lightning) reads.push({ kinds: ['LIGHTNING'], box: expandBBox(area.shape.bbox, filter.lightning.approachRadiusM ?? 0) });
  const tracked: HistoryKind[] = [];
  if (filter.thunderstorm) tracked.push('THUNDERSTORM');
  if (filter.precipitation) tracked.push('PRECIPITATION');
  if (tracked.length > 0) {
    const approach = filter.thunderstorm?.approach !== undefined || filter.precipitation?.approach !== undefined;
    reads.push({ kinds: tracked, box: expandBBox(area.shape.bbox, reachM(approach ? HORIZON_MIN : REVISION_GAP_MIN)) });
  }
  return reads;
}

/** The forecast cells an alarm may be evaluated on lie within the nearest-cell limit of its point or district. */
export function forecastRead(areaBox: BBox, maxCellDistanceM: number): KindRead {
  return { kinds: ['FORECAST'], box: expandBBox(areaBox, maxCellDistanceM) };
}
