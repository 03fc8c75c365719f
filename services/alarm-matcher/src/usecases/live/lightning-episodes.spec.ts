import assert from 'node:assert/strict';
import type { LightningActivity } from '../../lifecycle/lightning-episode.js';
import type { LightningActivityStore } from '../../ports/lightning-activity-store.js';
import { LightningEpisodes } from './lightning-episodes.js';

class MemoryActivity implements LightningActivityStore {
  readonly rows = new Map<string, LightningActivity>();
  writes = 0;
  reads = 0;
  saveCalls = 0;
  async get(ids: readonly string[]): Promise<Map<string, LightningActivity>> {
    this.reads += ids.length;
    await new Promise((resolve) => setTimeout(resolve, 5));
    return new Map(ids.flatMap((id) => (this.rows.has(id) ? [[id, this.rows.get(id)!] as const] : [])));
  }
  async save(activities: readonly LightningActivity[]): Promise<void> {
    this.saveCalls += 1;
    for (const a of activities) this.rows.set(a.registrationId, a);
    this.writes += activities.length;
  }
  async quietSince(): Promise<LightningActivity[]> {
    return [];
  }
  async close(activity: LightningActivity): Promise<void> {
    this.rows.delete(activity.registrationId);
  }
}

const QUIET = 30 * 60_000;
const EVERY = 60_000;

describe('LightningEpisodes', () => {
  it('writes an episode when it opens and then at most once per write interval', async () => {
    const store = new MemoryActivity();
    const episodes = new LightningEpisodes(store, QUIET, EVERY);
    await episodes.strike(['r'], 0);
    assert.equal(store.writes, 1);
    for (let t = 1_000; t < EVERY; t += 1_000) await episodes.strike(['r'], t);
    assert.equal(store.writes, 1, 'strikes inside the interval stay in memory');
    await episodes.strike(['r'], EVERY);
    assert.equal(store.writes, 2);
    assert.deepEqual(store.rows.get('r'), { registrationId: 'r', firstStrikeMs: 0, lastStrikeMs: EVERY });
    assert.equal(episodes.allClearMarginMs, EVERY);
  });

  it('handles concurrent strikes on one registration as one episode: one read, one opening, the latest strike kept', async () => {
    const store = new MemoryActivity();
    store.rows.set('r', { registrationId: 'r', firstStrikeMs: 0, lastStrikeMs: 5_000 });
    const episodes = new LightningEpisodes(store, QUIET, EVERY);
    // Strikes of records in flight at once, the last of them after the stored episode's quiet period.
    const ended = await Promise.all([episodes.strike(['r', 's'], 6_000), episodes.strike(['r', 's'], 7_000), episodes.strike(['r'], 7_000 + QUIET)]);
    assert.equal(store.reads, 2, 'one read per registration, shared by the three strikes');
    assert.deepEqual(ended.flat(), [{ registrationId: 'r', firstStrikeMs: 0, lastStrikeMs: 7_000 }], 'one all-clear for the old episode');
    assert.deepEqual(store.rows.get('r'), { registrationId: 'r', firstStrikeMs: 7_000 + QUIET, lastStrikeMs: 7_000 + QUIET });
    assert.deepEqual(
      store.rows.get('s'),
      { registrationId: 's', firstStrikeMs: 6_000, lastStrikeMs: 6_000 },
      'opened once; 7,000 is inside the write interval',
    );
    assert.equal(store.saveCalls, 1, 'the episode writes of the three strikes went out in one bulk write');
  });

  it('ends an episode whose quiet period passed, continuing from what another instance stored', async () => {
    const store = new MemoryActivity();
    store.rows.set('r', { registrationId: 'r', firstStrikeMs: 0, lastStrikeMs: 5_000 });
    const episodes = new LightningEpisodes(store, QUIET, EVERY);
    assert.deepEqual(await episodes.strike(['r'], 6_000), []);
    const ended = await episodes.strike(['r'], 6_000 + QUIET);
    assert.deepEqual(ended, [{ registrationId: 'r', firstStrikeMs: 0, lastStrikeMs: 6_000 }]);
    assert.deepEqual(
      store.rows.get('r'),
      { registrationId: 'r', firstStrikeMs: 6_000 + QUIET, lastStrikeMs: 6_000 + QUIET },
      'the new episode is written at once',
    );
  });
});
