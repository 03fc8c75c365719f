import { MicroBatcher } from '@stormhook/batch';
import type { LightningActivity } from '../../lifecycle/lightning-episode.js';
import { forgetEpisode, openAt, strikeEpisodes, type EpisodeBook, type EpisodeTiming } from '../../matching/episode-book.js';
import type { LightningActivityStore } from '../../ports/lightning-activity-store.js';

/**
 * This instance's view of the open lightning episodes (an {@link EpisodeBook}), in front of the
 * shared store. Writing the episode on every strike would cost a database update per strike and
 * registration; instead it is written when it opens and then whenever its last strike moved on by
 * `persistEveryMs` (the book's rule, matching/episode-book.ts). The stored last strike is therefore at
 * most `persistEveryMs` old, and the sweeper waits that much longer than the quiet period before it
 * clears an episode (see {@link allClearMarginMs}).
 */
export class LightningEpisodes {
  /** The episodes held in memory, by registration: what the matching core reads and updates. */
  readonly book: EpisodeBook = new Map();
  /** Reads of stored episodes in progress, by registration. */
  private readonly loading = new Map<string, Promise<void>>();

  /** Episode writes of the strikes in flight, gathered into one bulk write. */
  private readonly saves: MicroBatcher<LightningActivity, void>;

  readonly timing: EpisodeTiming;

  constructor(
    private readonly store: LightningActivityStore,
    quietMs: number,
    persistEveryMs: number,
  ) {
    this.timing = { quietMs, persistEveryMs };
    this.saves = new MicroBatcher({
      maxItems: 500,
      maxDelayMs: 2,
      flush: async (activities) => {
        // Two strikes of one batch may carry the same registration: its latest state is written.
        const latest = new Map<string, LightningActivity>();
        for (const activity of activities) {
          const held = latest.get(activity.registrationId);
          if (!held || activity.lastStrikeMs >= held.lastStrikeMs) latest.set(activity.registrationId, activity);
        }
        await this.store.save([...latest.values()]);
        return activities.map(() => undefined);
      },
    });
  }

  /** Extra wait of the sweeper beyond the quiet period, covering strikes not written yet. */
  get allClearMarginMs(): number {
    return this.timing.persistEveryMs;
  }

  /**
   * Records a strike for each registration; answers the episodes it ended (a strike after the quiet
   * period: the previous episode needs its all-clear before the new one starts).
   */
  async strike(registrationIds: readonly string[], strikeMs: number): Promise<LightningActivity[]> {
    await this.load(registrationIds);
    // From the load to the book's writes nothing awaits, so strikes handled concurrently (records of
    // several keys and partitions in flight) each see the episode as the one before left it.
    const { ended, toSave } = strikeEpisodes(this.book, registrationIds, strikeMs, this.timing);
    await this.persist(toSave);
    return ended;
  }

  /**
   * Writes episodes the book asked to write. Awaited: an episode must be stored before its strike's
   * record counts as done, or a crash would leave it without its all-clear.
   */
  async persist(activities: readonly LightningActivity[]): Promise<void> {
    await Promise.all(activities.map((activity) => this.saves.add(activity)));
  }

  /**
   * Reads into the book the stored episodes of registrations not held yet. Concurrent strikes on one
   * registration share one read, and a read never overwrites what a strike decided in the meantime.
   */
  async load(registrationIds: readonly string[]): Promise<void> {
    const waits: Array<Promise<void>> = [];
    const missing: string[] = [];
    for (const id of registrationIds) {
      if (this.book.has(id)) continue;
      const pending = this.loading.get(id);
      if (pending) waits.push(pending);
      else missing.push(id);
    }
    if (missing.length > 0) {
      const read = this.store.get(missing).then((stored) => {
        for (const [id, activity] of stored) if (!this.book.has(id)) this.book.set(id, { activity, persistedLastMs: activity.lastStrikeMs });
      });
      // A failed read fails every strike waiting on it: none may open an episode the store already holds.
      const settled: Promise<void> = read.finally(() => {
        for (const id of missing) if (this.loading.get(id) === settled) this.loading.delete(id);
      });
      for (const id of missing) this.loading.set(id, settled);
      waits.push(settled);
    }
    await Promise.all(waits);
  }

  /** The episode held in memory for the registration (after {@link strike}: the one the strike is part of). */
  current(registrationId: string): LightningActivity | undefined {
    return this.book.get(registrationId)?.activity;
  }

  /** Whether this instance holds an episode of the registration still open at `atMs` (not ended by a quiet period). */
  isOpenAt(registrationId: string, atMs: number): boolean {
    return openAt(this.book, registrationId, atMs, this.timing.quietMs);
  }

  /** The sweeper cleared this episode: forget it, unless a newer one is held already. */
  forget(activity: LightningActivity): void {
    forgetEpisode(this.book, activity);
  }
}
