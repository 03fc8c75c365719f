import type { Rain, Storm } from '../matching/weather-events.js';
import { EventProjection } from './projection.js';
import { resolveMotion } from './resolve-motion.js';
import type { TrackMemory } from './track-memory.js';

/** What a storm revision's projection reads of it. */
export type StormPosition = Pick<Storm, 'eventId' | 'observedMs' | 'threat' | 'threatBox'> & {
  cell: Pick<Storm['cell'], 'centroid' | 'speedKmh' | 'directionDeg' | 'polygon' | 'box'>;
};

/**
 * One revision of a storm, projected as the matcher does it: its position joins the event's track,
 * the motion is the feed's cell vector (speed 0: none) or the track's, and the cell polygon (the
 * threat polygon when the feed sent no cell) is what moves. The one recipe, for the live matcher
 * and the skill benchmark alike.
 */
export function projectStorm(storm: StormPosition, tracks: TrackMemory): EventProjection {
  tracks.observe(storm.eventId, storm.observedMs, storm.cell.centroid);
  const feed = storm.cell.speedKmh > 0 ? { speedKmh: storm.cell.speedKmh, directionDeg: storm.cell.directionDeg } : undefined;
  const hasCell = storm.cell.polygon.length > 0;
  return new EventProjection(
    storm.observedMs,
    hasCell ? storm.cell.polygon : storm.threat,
    hasCell ? storm.cell.box : storm.threatBox,
    resolveMotion(storm.eventId, feed, tracks),
  );
}

/** One revision of a rain area, projected: its geometry along the feed's motion vector or its track's. */
export function projectRain(rain: Pick<Rain, 'eventId' | 'timeMs' | 'centroid' | 'geometry' | 'box' | 'motion'>, tracks: TrackMemory): EventProjection {
  tracks.observe(rain.eventId, rain.timeMs, rain.centroid);
  return new EventProjection(rain.timeMs, rain.geometry, rain.box, resolveMotion(rain.eventId, rain.motion, tracks));
}
