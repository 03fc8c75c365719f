import { decideStrike, type LightningActivity } from '../lifecycle/lightning-episode.js';

/** One registration's open lightning episode as held in memory, and its last strike as last written to the store. */
export interface HeldEpisode {
  activity: LightningActivity;
  /** lastStrikeMs as stored (the store lags the episode by less than the write interval). */
  persistedLastMs: number;
}

/** The open episodes held in memory, by registration id: the in-memory half of the lightning lifecycle state. */
export type EpisodeBook = Map<string, HeldEpisode>;

/** How episodes end and how often they are written (the all-clear waits the write interval longer than the quiet period). */
export interface EpisodeTiming {
  quietMs: number;
  persistEveryMs: number;
}

/**
 * Records a strike for each registration in `book`, which the caller has filled with what the store
 * holds for them. Answers the episodes the strike ended (a strike after the quiet period: the previous
 * episode needs its all-clear before the new one starts) and the episodes to write: an episode is
 * written when it opens and then whenever its last strike moved on by `persistEveryMs`, so that a
 * strike costs no database write per registration. Synchronous: strikes handled concurrently each
 * see the book as the one before left it.
 */
export function strikeEpisodes(
  book: EpisodeBook,
  registrationIds: readonly string[],
  strikeMs: number,
  timing: EpisodeTiming,
): { ended: LightningActivity[]; toSave: LightningActivity[] } {
  const ended: LightningActivity[] = [];
  const toSave: LightningActivity[] = [];
  for (const id of registrationIds) {
    const held = book.get(id);
    const decision = decideStrike(id, held?.activity, strikeMs, timing.quietMs);
    if (decision.endedEpisode) ended.push(decision.endedEpisode);
    const opened = !held || decision.endedEpisode !== undefined;
    const persistedLastMs = held && !opened ? held.persistedLastMs : -Infinity;
    if (opened || decision.next.lastStrikeMs - persistedLastMs >= timing.persistEveryMs) {
      toSave.push(decision.next);
      book.set(id, { activity: decision.next, persistedLastMs: decision.next.lastStrikeMs });
    } else {
      book.set(id, { activity: decision.next, persistedLastMs });
    }
  }
  return { ended, toSave };
}

/** Whether the book holds an episode of the registration still open at `atMs` (not ended by a quiet period). */
export function openAt(book: EpisodeBook, registrationId: string, atMs: number, quietMs: number): boolean {
  const activity = book.get(registrationId)?.activity;
  return activity !== undefined && atMs - activity.lastStrikeMs < quietMs;
}

/** The sweeper cleared this episode: forget it, unless a newer one is held already. */
export function forgetEpisode(book: EpisodeBook, activity: LightningActivity): void {
  const held = book.get(activity.registrationId);
  if (held && held.activity.firstStrikeMs === activity.firstStrikeMs) book.delete(activity.registrationId);
}
