import assert from 'node:assert/strict';
import { createLogger } from '@stormhook/logger';
import type { EndpointChange, EndpointChangeLog } from '../ports/endpoint-change-log.js';
import { EndpointChangeWatcher } from './endpoint-change-watcher.js';

/** The log in memory: numbers in order, some of which a test may take away (trimmed). */
class MemoryChangeLog implements EndpointChangeLog {
  readonly changes = new Map<number, EndpointChange>();
  reads = 0;
  private last = 0;
  async record(change: { endpointId: string; accountId: string }, at: Date): Promise<void> {
    this.last++;
    this.changes.set(this.last, { seq: this.last, ...change, at });
  }
  async read(seq: number): Promise<EndpointChange | null> {
    this.reads++;
    return this.changes.get(seq) ?? null;
  }
  async head(): Promise<number> {
    return this.last;
  }
}

class RecordingCache {
  readonly changed: string[] = [];
  expired = 0;
  changedOne(endpointId: string, accountId: string): void {
    this.changed.push(`${endpointId}/${accountId}`);
  }
}

const logger = createLogger({ service: 'watcher-spec', level: 'silent' });

function watcherOver(log: MemoryChangeLog, headCheckMs = 60_000): { watcher: EndpointChangeWatcher; cache: RecordingCache } {
  const cache = new RecordingCache();
  const watcher = new EndpointChangeWatcher(
    {
      log,
      cache: {
        changed: (endpointId, accountId) => cache.changedOne(endpointId, accountId),
        expireAll: () => {
          cache.expired++;
        },
      },
      logger,
    },
    { intervalMs: 60_000, headCheckMs },
  );
  return { watcher, cache };
}

describe("EndpointChangeWatcher: other instances' endpoint changes reach the cache", () => {
  it('starts after what was recorded before it, then hears each new change once, in order', async () => {
    const log = new MemoryChangeLog();
    await log.record({ endpointId: 'ep_old', accountId: 'acc_old' }, new Date());
    const { watcher, cache } = watcherOver(log);
    await watcher.start();
    try {
      assert.equal(await watcher.poll(), 0);
      await log.record({ endpointId: 'ep_1', accountId: 'acc_1' }, new Date());
      await log.record({ endpointId: 'ep_2', accountId: 'acc_2' }, new Date());
      assert.equal(await watcher.poll(), 2);
      assert.equal(await watcher.poll(), 0);
      assert.deepEqual(cache.changed, ['ep_1/acc_1', 'ep_2/acc_2']);
      assert.equal(cache.expired, 0);
    } finally {
      await watcher.stop();
    }
  });

  it('costs one read a look when nothing changed', async () => {
    const log = new MemoryChangeLog();
    const { watcher } = watcherOver(log);
    await watcher.start();
    try {
      log.reads = 0;
      for (let i = 0; i < 5; i++) await watcher.poll();
      assert.equal(log.reads, 5);
    } finally {
      await watcher.stop();
    }
  });

  it('when the number it waits for was trimmed away, reads every cached endpoint again and follows on after the head', async () => {
    const log = new MemoryChangeLog();
    const { watcher, cache } = watcherOver(log, 0);
    await watcher.start();
    try {
      await log.record({ endpointId: 'ep_1', accountId: 'acc_1' }, new Date());
      await log.record({ endpointId: 'ep_2', accountId: 'acc_2' }, new Date());
      log.changes.delete(1); // trimmed while this instance was away
      assert.equal(await watcher.poll(), 0);
      assert.equal(cache.expired, 1);
      await log.record({ endpointId: 'ep_3', accountId: 'acc_3' }, new Date());
      assert.equal(await watcher.poll(), 1);
      assert.deepEqual(cache.changed, ['ep_3/acc_3']);
    } finally {
      await watcher.stop();
    }
  });
});
