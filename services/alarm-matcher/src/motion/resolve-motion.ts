import { dampedVelocity } from './damping.js';
import { headingOf, velocityOf, type Motion, type Velocity } from './motion.js';
import type { TrackMemory } from './track-memory.js';

/** A motion vector as the weather event carries it (towards, clockwise from north). */
export interface FeedVector {
  speedKmh: number;
  directionDeg: number;
}

/** Fastest motion believed: a faster vector is a unit mistake or a tracker glitch (jet-stream squall lines stay below). */
export const MAX_PLAUSIBLE_SPEED_KMH = 150;

export function plausible(vector: FeedVector | undefined): vector is FeedVector {
  return (
    vector !== undefined &&
    Number.isFinite(vector.speedKmh) &&
    Number.isFinite(vector.directionDeg) &&
    vector.speedKmh > 0 &&
    vector.speedKmh <= MAX_PLAUSIBLE_SPEED_KMH
  );
}

/** The feed's vector as a velocity, when it is plausible: what joins the event's track and its kind's regional flow. */
export function feedVelocity(feed: FeedVector | undefined): Velocity | undefined {
  return plausible(feed) ? velocityOf({ speedKmh: feed.speedKmh, towardDeg: feed.directionDeg }) : undefined;
}

/**
 * The motion of an event: from the feed's vector when it sent a plausible one (a tracker sees more of
 * the storm than its centroid), damped towards the event's longer-term mean and its kind's regional
 * flow (damping.ts; `flow` names the kind); else the one its successive positions show; else none (a
 * first sighting without a vector: nothing is projected). The track's age and steadiness travel with
 * either. The event's revision is expected in `tracks` already (TrackMemory.observe).
 */
export function resolveMotion(eventId: string, feed: FeedVector | undefined, tracks: TrackMemory, flow?: string): Motion | undefined {
  const tracked = tracks.estimate(eventId);
  if (plausible(feed)) {
    const extent = tracks.extent(eventId);
    const latest = velocityOf({ speedKmh: feed.speedKmh, towardDeg: feed.directionDeg });
    const at = tracks.latest(eventId);
    const regional = flow === undefined || at === undefined ? undefined : tracks.flow(flow, at);
    const damped = headingOf(dampedVelocity(latest, tracks.ownMean(eventId), regional));
    return {
      ...damped,
      source: 'FEED',
      ...extent,
      quality: tracked && tracked.trackPoints >= 3 ? tracked.quality : 0.5,
    };
  }
  if (tracked && tracked.speedKmh <= MAX_PLAUSIBLE_SPEED_KMH) return tracked;
  return undefined;
}
