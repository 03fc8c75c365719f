import type { Rain, Storm } from '../domain/weather-events.js';
import { lifeAheadMin } from './decay.js';
import { EventProjection } from './projection.js';
import { feedVelocity, resolveMotion } from './resolve-motion.js';
import type { TrackMemory } from './track-memory.js';

/** What a storm revision's projection reads of it. */
export type StormPosition = Pick<Storm, 'eventId' | 'observedMs' | 'threat' | 'threatBox' | 'threshold'> & {
  cell: Pick<Storm['cell'], 'centroid' | 'speedKmh' | 'directionDeg' | 'polygon' | 'box' | 'areaKm2'> & {
    flashRates: Pick<Storm['cell']['flashRates'], 'total'>;
  };
};

/** The regional flows (regional-flow.ts) the two kinds of tracked event keep apart: cells and rain areas move differently. */
export const STORM_FLOW = 'thunderstorm';
export const RAIN_FLOW = 'precipitation';

/**
 * One revision of a storm, projected as the matcher does it: its position, vector and vitals join the
 * event's track, the motion is the feed's cell vector (speed 0: none) damped towards the cell's mean
 * and the cells' regional flow, or the track's, and the cell polygon (the
 * threat polygon when the feed sent no cell) is what moves; the trend of its flash rate and area
 * tells whether it is decaying (decay.ts). The one recipe, for the live matcher and the skill
 * benchmark alike.
 */
export function projectStorm(storm: StormPosition, tracks: TrackMemory): EventProjection {
  const feed = storm.cell.speedKmh > 0 ? { speedKmh: storm.cell.speedKmh, directionDeg: storm.cell.directionDeg } : undefined;
  const vector = feedVelocity(feed);
  tracks.observe(storm.eventId, storm.observedMs, storm.cell.centroid, {
    ...(vector ? { feed: vector } : {}),
    flow: STORM_FLOW,
    vitals: { flashesPerMin: storm.cell.flashRates.total, areaKm2: storm.cell.areaKm2 },
  });
  const hasCell = storm.cell.polygon.length > 0;
  return new EventProjection(
    storm.observedMs,
    hasCell ? storm.cell.polygon : storm.threat,
    hasCell ? storm.cell.box : storm.threatBox,
    resolveMotion(storm.eventId, feed, tracks, STORM_FLOW),
    lifeAheadMin(tracks.vitals(storm.eventId), storm.threshold),
  );
}

/** One revision of a rain area, projected: its geometry along the feed's motion vector or its track's. */
export function projectRain(
  rain: Pick<Rain, 'eventId' | 'timeMs' | 'centroid' | 'geometry' | 'box' | 'motion' | 'areaKm2'>,
  tracks: TrackMemory,
): EventProjection {
  const vector = feedVelocity(rain.motion);
  tracks.observe(rain.eventId, rain.timeMs, rain.centroid, { ...(vector ? { feed: vector } : {}), flow: RAIN_FLOW, vitals: { areaKm2: rain.areaKm2 } });
  return new EventProjection(rain.timeMs, rain.geometry, rain.box, resolveMotion(rain.eventId, rain.motion, tracks, RAIN_FLOW));
}
