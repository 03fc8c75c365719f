/**
 * Lightning activity of one registration: an episode runs from its first matching strike until a
 * quiet period (default 30 minutes) passes without one; then the registration gets one ALL_CLEAR.
 * The all-clear's stage is the episode's first strike time, so whoever notices the end first (the
 * sweeper, or the first strike of the next episode) produces the same notification id.
 */
export interface LightningActivity {
  registrationId: string;
  firstStrikeMs: number;
  lastStrikeMs: number;
}

export interface StrikeDecision {
  /** The previous episode ended before this strike and still needs its all-clear. */
  endedEpisode?: LightningActivity;
  next: LightningActivity;
}

export function decideStrike(registrationId: string, current: LightningActivity | undefined, strikeMs: number, quietMs: number): StrikeDecision {
  if (!current) return { next: { registrationId, firstStrikeMs: strikeMs, lastStrikeMs: strikeMs } };
  if (strikeMs - current.lastStrikeMs >= quietMs) {
    return { endedEpisode: current, next: { registrationId, firstStrikeMs: strikeMs, lastStrikeMs: strikeMs } };
  }
  // A late strike inside the episode must not move its end backwards.
  return { next: { ...current, lastStrikeMs: Math.max(current.lastStrikeMs, strikeMs) } };
}

/** When the all-clear of an episode is due (its last strike plus the quiet period), epoch ms. */
export function allClearDueMs(activity: LightningActivity, quietMs: number): number {
  return activity.lastStrikeMs + quietMs;
}

export function allClearStage(activity: LightningActivity): string {
  return `all-clear@${activity.firstStrikeMs}`;
}

/** The pseudo event id all-clear notifications are keyed by (there is no single weather event). */
export const LIGHTNING_EPISODE_EVENT = 'lightning-episode';
