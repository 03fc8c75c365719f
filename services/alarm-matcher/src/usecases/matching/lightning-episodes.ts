import { decideStrike, type LightningActivity } from '../../lifecycle/lightning-episode.js';
import type { LightningActivityStore } from '../../ports/lightning-activity-store.js';

interface Cached {
  activity: LightningActivity;
  /** lastStrikeMs as stored. */
  persistedLastMs: number;
}

/**
 * This instance's view of the open lightning episodes, in front of the shared store. Writing the
 * episode on every strike would cost a database update per strike and registration; instead it is
 * written when it opens and then whenever its last strike moved on by `persistEveryMs`. The stored
 * last strike is therefore at most `persistEveryMs` old, and the sweeper waits that much longer than
 * the quiet period before it clears an episode (see {@link allClearMarginMs}).
 */
export class LightningEpisodes {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly store: LightningActivityStore,
    private readonly quietMs: number,
    private readonly persistEveryMs: number,
  ) {}

  /** Extra wait of the sweeper beyond the quiet period, covering strikes not written yet. */
  get allClearMarginMs(): number {
    return this.persistEveryMs;
  }

  /**
   * Records a strike for each registration; answers the episodes it ended (a strike after the quiet
   * period: the previous episode needs its all-clear before the new one starts).
   */
  async strike(registrationIds: readonly string[], strikeMs: number): Promise<LightningActivity[]> {
    const missing = registrationIds.filter((id) => !this.cache.has(id));
    if (missing.length > 0) {
      const stored = await this.store.get(missing);
      for (const [id, activity] of stored) this.cache.set(id, { activity, persistedLastMs: activity.lastStrikeMs });
    }
    const ended: LightningActivity[] = [];
    const toSave: LightningActivity[] = [];
    for (const id of registrationIds) {
      const cached = this.cache.get(id);
      const decision = decideStrike(id, cached?.activity, strikeMs, this.quietMs);
      if (decision.endedEpisode) ended.push(decision.endedEpisode);
      const opened = !cached || decision.endedEpisode !== undefined;
      const persistedLastMs = cached && !opened ? cached.persistedLastMs : -Infinity;
      if (opened || decision.next.lastStrikeMs - persistedLastMs >= this.persistEveryMs) {
        toSave.push(decision.next);
        this.cache.set(id, { activity: decision.next, persistedLastMs: decision.next.lastStrikeMs });
      } else {
        this.cache.set(id, { activity: decision.next, persistedLastMs });
      }
    }
    await this.store.save(toSave);
    return ended;
  }

  /** The sweeper cleared this episode: forget it, unless a newer one is held already. */
  forget(activity: LightningActivity): void {
    const cached = this.cache.get(activity.registrationId);
    if (cached && cached.activity.firstStrikeMs === activity.firstStrikeMs) this.cache.delete(activity.registrationId);
  }
}
