/**
 * Lightning in a registration's approach ring (beyond its area, within `approachRadius` of its edge).
 * Ring strikes form episodes like the strikes inside an area (a quiet period ends one); each episode
 * gives at most one `lightning.approaching`, sent on its second ring strike: the first moment there
 * is a trend to report (nearer or farther than the strike before), and a lone strike 20 km away does
 * not make a storm on its way. The notification's stage is the episode's first strike time, stored
 * when the episode opens, so a replay or another instance names the same notification.
 */
export interface RingTrail {
  /** First ring strike of the episode, epoch ms. */
  episodeFirstMs: number;
  /** Distance of the latest ring strike from the area's edge, metres. */
  lastDistanceM: number;
  /** Nearest ring strike of the episode so far, metres from the edge. */
  nearestM: number;
  /** Ring strikes this instance has seen in the episode. */
  strikes: number;
  /** The episode's approaching notice went out (from this instance). */
  notified: boolean;
}

export interface ApproachNotice {
  episodeFirstMs: number;
  nearestM: number;
  distanceM: number;
  /** This strike is nearer to the area than the ring strike before it. */
  closing: boolean;
  strikes: number;
}

export interface RingDecision {
  next: RingTrail;
  notice?: ApproachNotice;
}

export function decideRingStrike(trail: RingTrail | undefined, episodeFirstMs: number, distanceM: number): RingDecision {
  if (!trail || trail.episodeFirstMs !== episodeFirstMs) {
    return { next: { episodeFirstMs, lastDistanceM: distanceM, nearestM: distanceM, strikes: 1, notified: false } };
  }
  const next: RingTrail = {
    episodeFirstMs,
    lastDistanceM: distanceM,
    nearestM: Math.min(trail.nearestM, distanceM),
    strikes: trail.strikes + 1,
    notified: true,
  };
  if (trail.notified) return { next };
  return { next, notice: { episodeFirstMs, nearestM: next.nearestM, distanceM, closing: distanceM < trail.lastDistanceM, strikes: next.strikes } };
}

export function approachStage(episodeFirstMs: number): string {
  return `approach@${episodeFirstMs}`;
}

/** The pseudo event id approaching notices are keyed by (an episode of several strikes, no single event). */
export const LIGHTNING_APPROACH_EVENT = 'lightning-approach';
