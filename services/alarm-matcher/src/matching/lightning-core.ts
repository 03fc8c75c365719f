import { decideRingStrike, type ApproachNotice, type RingTrail } from '../lifecycle/lightning-approach.js';
import type { LightningActivity } from '../lifecycle/lightning-episode.js';
import type { RealtimeRegistration } from '../domain/registration.js';
import type { Strike } from '../domain/weather-events.js';
import { openAt, strikeEpisodes, type EpisodeBook, type EpisodeTiming } from './episode-book.js';
import type { Match, RegistrationIndex, RingMatch } from './registration-index.js';

const TRAIL_PRUNE_INTERVAL_MS = 10 * 60_000;
/** A trail older than this belongs to an episode long ended (episodes end after a quiet period of minutes). */
const TRAIL_KEEP_MS = 24 * 60 * 60_000;

export interface LightningSettings extends EpisodeTiming {
  /** Older strikes are not notified: nobody acts on lightning of hours ago. */
  maxAgeMs: number;
}

/**
 * The distance trail behind each ring episode's `closing` (lifecycle/lightning-approach.ts): memory of
 * the instance only (after a restart the next two ring strikes rebuild it), pruned now and then.
 */
export class RingTrails {
  readonly trails = new Map<string, RingTrail>();
  private prunedAtMs = 0;

  /** Drops trails of episodes long over (of registrations since gone, too), at most once per interval. */
  prune(nowMs: number): void {
    if (nowMs - this.prunedAtMs < TRAIL_PRUNE_INTERVAL_MS) return;
    this.prunedAtMs = nowMs;
    for (const [id, trail] of this.trails) if (nowMs - trail.episodeFirstMs > TRAIL_KEEP_MS) this.trails.delete(id);
  }
}

/** The lightning half of the lifecycle state: episodes inside the areas, episodes in the approach rings, ring trails. */
export interface LightningState {
  area: EpisodeBook;
  ring: EpisodeBook;
  trails: RingTrails;
}

/** What a strike touches (step one, before the caller fills the books with the stored episodes it names). */
export interface StrikeCandidates {
  strike: Strike;
  matches: readonly Match[];
  ring: readonly RingMatch[];
  /**
   * Within the quiet period of now. An older strike is history (a replay, a long backlog): it is
   * notified, but must not reopen an episode whose all-clear went out already, nor warn of an approach.
   */
  recent: boolean;
}

/** What one strike decided, and the episodes to write (step two). */
export interface StrikeDecision {
  strike: Strike;
  /** Registrations whose area holds the strike: a START each. */
  starts: Match[];
  /** Episodes the strike ended by coming after their quiet period: an ALL_CLEAR each. */
  allClears: Array<{ registration: RealtimeRegistration; activity: LightningActivity }>;
  /** Ring episodes announced by this strike: an APPROACHING each. */
  approaches: Array<{ registration: RealtimeRegistration; notice: ApproachNotice }>;
  areaSaves: LightningActivity[];
  ringSaves: LightningActivity[];
}

export function strikeCandidates(index: RegistrationIndex, strike: Strike, nowMs: number, settings: LightningSettings): StrikeCandidates | undefined {
  if (strike.timeMs < nowMs - settings.maxAgeMs) return undefined;
  const matches = index.matchLightning(strike);
  const ring = index.matchLightningRing(strike);
  if (matches.length === 0 && ring.length === 0) return undefined;
  return { strike, matches, ring, recent: strike.timeMs + settings.quietMs > nowMs };
}

/** The ring registrations that hear of this strike: those without lightning inside their area already (their ring episodes are read). */
export function ringListeners(candidates: StrikeCandidates, area: EpisodeBook, quietMs: number): RingMatch[] {
  if (!candidates.recent) return [];
  return candidates.ring.filter((m) => !openAt(area, m.registration.registrationId, candidates.strike.timeMs, quietMs));
}

/**
 * Decides a strike against the lifecycle state, updating it in place (the next state): ring episodes
 * and their approach notices, episodes inside the areas and the all-clears of those it ended, a
 * START per matching registration. The books must hold what the store holds for the registrations
 * named by {@link ringListeners} and the matches.
 */
export function decideStrike(candidates: StrikeCandidates, state: LightningState, settings: LightningSettings): StrikeDecision {
  const { strike, recent } = candidates;
  // One START per registration even if the index named one twice (the usual single match needs no map).
  const starts =
    candidates.matches.length <= 1 ? [...candidates.matches] : [...new Map(candidates.matches.map((m) => [m.registration.registrationId, m])).values()];
  const decision: StrikeDecision = { strike, starts, allClears: [], approaches: [], areaSaves: [], ringSaves: [] };
  if (recent && candidates.ring.length > 0) {
    state.trails.prune(strike.timeMs);
    const listeners = ringListeners(candidates, state.area, settings.quietMs);
    if (listeners.length > 0) {
      decision.ringSaves = strikeEpisodes(
        state.ring,
        listeners.map((m) => m.registration.registrationId),
        strike.timeMs,
        settings,
      ).toSave;
      for (const { registration, distanceM } of listeners) {
        const id = registration.registrationId;
        const episode = state.ring.get(id)?.activity;
        if (!episode) continue;
        const { next, notice } = decideRingStrike(state.trails.trails.get(id), episode.firstStrikeMs, distanceM);
        state.trails.trails.set(id, next);
        if (notice) decision.approaches.push({ registration, notice });
      }
    }
  }
  if (recent && starts.length > 0) {
    const { ended, toSave } = strikeEpisodes(
      state.area,
      starts.map((m) => m.registration.registrationId),
      strike.timeMs,
      settings,
    );
    decision.areaSaves = toSave;
    for (const activity of ended) {
      const registration = starts.find((m) => m.registration.registrationId === activity.registrationId)?.registration;
      if (registration) decision.allClears.push({ registration, activity });
    }
  }
  return decision;
}
