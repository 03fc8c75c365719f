import assert from 'node:assert/strict';
import { MicroBatcher } from './micro-batcher.js';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('MicroBatcher', () => {
  it('flushes a full batch at once, without waiting for the timer', async () => {
    const batches: number[][] = [];
    const batcher = new MicroBatcher<number, number>({
      maxItems: 3,
      maxDelayMs: 10_000,
      flush: async (items) => (batches.push([...items]), items.map((i) => i * 2)),
    });
    const results = await Promise.all([1, 2, 3].map((i) => batcher.add(i)));
    assert.deepEqual(results, [2, 4, 6]);
    assert.deepEqual(batches, [[1, 2, 3]]);
  });

  it('flushes a partial batch after maxDelayMs', async () => {
    const batches: number[][] = [];
    const batcher = new MicroBatcher<number, number>({ maxItems: 100, maxDelayMs: 20, flush: async (items) => (batches.push([...items]), [...items]) });
    const started = Date.now();
    const one = batcher.add(1);
    await tick(5);
    const two = batcher.add(2);
    assert.deepEqual(await Promise.all([one, two]), [1, 2]);
    assert.ok(Date.now() - started >= 18, 'waited for the delay');
    assert.deepEqual(batches, [[1, 2]]);
  });

  it('gathers items that arrive during a flush into the next batch, bounded by maxItems', async () => {
    const batches: number[][] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batcher = new MicroBatcher<number, number>({
      maxItems: 2,
      maxDelayMs: 1,
      flush: async (items) => {
        batches.push([...items]);
        if (batches.length === 1) await gate;
        return [...items];
      },
    });
    const first = batcher.add(0);
    await tick(5);
    const rest = [1, 2, 3, 4, 5].map((i) => batcher.add(i));
    assert.equal(batcher.waiting, 5, 'one flush at a time by default');
    release();
    await Promise.all([first, ...rest]);
    assert.deepEqual(batches, [[0], [1, 2], [3, 4], [5]]);
  });

  it('fails every item of a failed batch and only those', async () => {
    let calls = 0;
    const batcher = new MicroBatcher<number, number>({
      maxItems: 2,
      maxDelayMs: 1,
      flush: async (items) => {
        calls += 1;
        if (calls === 1) throw new Error('database down');
        return [...items];
      },
    });
    const failed = await Promise.allSettled([batcher.add(1), batcher.add(2)]);
    assert.deepEqual(
      failed.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    assert.deepEqual(await Promise.all([batcher.add(3), batcher.add(4)]), [3, 4]);
  });

  it('rejects a flush that returns the wrong number of results', async () => {
    const batcher = new MicroBatcher<number, number>({ maxItems: 2, maxDelayMs: 1, flush: async () => [1] });
    await assert.rejects(Promise.all([batcher.add(1), batcher.add(2)]), /1 results for 2 items/);
  });

  it('drain() flushes what is queued and waits for flushes in progress', async () => {
    const flushed: number[] = [];
    const batcher = new MicroBatcher<number, void>({
      maxItems: 100,
      maxDelayMs: 60_000,
      flush: async (items) => {
        await tick(5);
        flushed.push(...items);
        return items.map(() => undefined);
      },
    });
    const pending = [batcher.add(1), batcher.add(2)];
    await batcher.drain();
    assert.deepEqual(flushed, [1, 2]);
    await Promise.all(pending);
  });

  it('refuses bounds that make no sense', () => {
    assert.throws(() => new MicroBatcher({ maxItems: 0, maxDelayMs: 1, flush: async () => [] }), /maxItems/);
    assert.throws(() => new MicroBatcher({ maxItems: 1, maxDelayMs: -1, flush: async () => [] }), /maxDelayMs/);
  });
});
