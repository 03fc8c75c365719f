import type { Motion } from './motion.js';
import type { TrackMemory } from './track-memory.js';

/** A motion vector as the weather event carries it (towards, clockwise from north). */
export interface FeedVector {
  speedKmh: number;
  directionDeg: number;
}

/** Fastest motion believed: a faster vector is a unit mistake or a tracker glitch (jet-stream squall lines stay below). */
export const MAX_PLAUSIBLE_SPEED_KMH = 150;

function plausible(vector: FeedVector | undefined): vector is FeedVector {
  return (
    vector !== undefined &&
    Number.isFinite(vector.speedKmh) &&
    Number.isFinite(vector.directionDeg) &&
    vector.speedKmh > 0 &&
    vector.speedKmh <= MAX_PLAUSIBLE_SPEED_KMH
  );
}

/**
 * The motion of an event: the feed's vector when it sent a plausible one (a tracker sees more of the
 * storm than its centroid), else the one its successive positions show, else none (a first sighting
 * without a vector: nothing is projected). The track's age and steadiness travel with either.
 */
export function resolveMotion(eventId: string, feed: FeedVector | undefined, tracks: TrackMemory): Motion | undefined {
  const tracked = tracks.estimate(eventId);
  if (plausible(feed)) {
    const extent = tracks.extent(eventId);
    return {
      speedKmh: feed.speedKmh,
      towardDeg: ((feed.directionDeg % 360) + 360) % 360,
      source: 'FEED',
      ...extent,
      quality: tracked && tracked.trackPoints >= 3 ? tracked.quality : 0.5,
    };
  }
  if (tracked && tracked.speedKmh <= MAX_PLAUSIBLE_SPEED_KMH) return tracked;
  return undefined;
}
