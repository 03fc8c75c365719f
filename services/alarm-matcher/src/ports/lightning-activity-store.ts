import type { LightningActivity } from '../lifecycle/lightning-episode.js';

/** The open lightning episode of each registration with recent strikes. */
export interface LightningActivityStore {
  get(registrationIds: readonly string[]): Promise<Map<string, LightningActivity>>;
  save(activities: readonly LightningActivity[]): Promise<void>;
  /** Episodes whose last strike is at or before `lastStrikeAtOrBeforeMs`. */
  quietSince(lastStrikeAtOrBeforeMs: number, limit: number): Promise<LightningActivity[]>;
  /** Closes the episode unless a newer strike arrived meanwhile (then it stays open). */
  close(activity: LightningActivity): Promise<void>;
}
