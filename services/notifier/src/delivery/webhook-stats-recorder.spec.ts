import assert from 'node:assert/strict';
import { createLogger } from '@stormhook/logger';
import type { AccountStats } from '../domain/webhook-stats.js';
import type { WebhookStatsStore } from '../ports/webhook-stats-store.js';
import { WebhookStatsRecorder } from './webhook-stats-recorder.js';

/** The store as a map (the Mongo one is exercised by the notifier's integration tests). */
class MemoryStatsStore implements WebhookStatsStore {
  readonly docs = new Map<string, AccountStats>();
  readonly writes: number[] = [];
  failNext = false;
  async touchWriter(): Promise<void> {}
  async save(writerId: string, stats: readonly AccountStats[]): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('database down');
    }
    this.writes.push(stats.length);
    for (const s of stats) this.docs.set(`${s.accountId}|${writerId}`, structuredClone(s));
  }
  async writers(): Promise<string[]> {
    return [];
  }
  async load(): Promise<AccountStats[]> {
    return [];
  }
  async removeWritersBefore(): Promise<number> {
    return 0;
  }
}

const T0 = Date.UTC(2026, 10, 28, 12, 0, 0);
const clock = { now: () => new Date(T0) };
const logger = createLogger({ service: 'recorder-spec', level: 'silent' });
const attempt = { at: T0 - 1_000, durationMs: 30, succeeded: true, example: { notificationId: 'n', attemptNumber: 1, responseStatus: 200, error: '' } };

describe('webhook statistics recorder', () => {
  it('writes only the accounts that changed, at most the configured number per round', async () => {
    const store = new MemoryStatsStore();
    const recorder = new WebhookStatsRecorder({ store, clock, logger }, { writerId: 'w1', flushIntervalMs: 60_000, maxAccountsPerFlush: 2 });
    for (const account of ['a', 'b', 'c']) recorder.attempted(account, attempt);
    await recorder.flush();
    await recorder.flush();
    await recorder.flush();
    assert.deepEqual(store.writes, [2, 1], 'three changed accounts, two per round; the third round has nothing to write');
    recorder.opened('a');
    await recorder.flush();
    assert.deepEqual(store.writes, [2, 1, 1]);
    assert.equal(store.docs.get('a|w1')?.opened, 1);
    assert.equal(store.docs.get('a|w1')?.minutes[0]?.attempts, 1);
  });

  it('keeps accounts whose write failed for the next round, and writes everything left on stop', async () => {
    const store = new MemoryStatsStore();
    const recorder = new WebhookStatsRecorder({ store, clock, logger }, { writerId: 'w1', flushIntervalMs: 60_000, maxAccountsPerFlush: 1 });
    recorder.attempted('a', attempt);
    recorder.attempted('b', attempt);
    store.failNext = true;
    await recorder.flush();
    assert.equal(store.docs.size, 0);
    await recorder.stop();
    assert.deepEqual([...store.docs.keys()].sort(), ['a|w1', 'b|w1']);
  });

  it('reports the earliest retry still ahead and forgets those already due', () => {
    const store = new MemoryStatsStore();
    let now = T0;
    const recorder = new WebhookStatsRecorder(
      { store, clock: { now: () => new Date(now) }, logger },
      { writerId: 'w1', flushIntervalMs: 60_000, maxAccountsPerFlush: 10 },
    );
    recorder.retryScheduled('a', T0 + 30_000);
    recorder.retryScheduled('a', T0 + 10_000);
    assert.equal(recorder.current('a')?.nextRetryAt, T0 + 10_000);
    now = T0 + 20_000;
    assert.equal(recorder.current('a')?.nextRetryAt, T0 + 30_000);
    now = T0 + 40_000;
    assert.equal(recorder.current('a')?.nextRetryAt, null);
  });

  it('hands out copies: a caller cannot change what the recorder keeps', () => {
    const recorder = new WebhookStatsRecorder(
      { store: new MemoryStatsStore(), clock, logger },
      { writerId: 'w1', flushIntervalMs: 60_000, maxAccountsPerFlush: 10 },
    );
    recorder.attempted('a', attempt);
    const copy = recorder.current('a');
    assert.ok(copy);
    copy.opened = 99;
    assert.equal(recorder.current('a')?.opened, 0);
  });
});
