import assert from 'node:assert/strict';
import { BatchingSeenStore } from './batching-seen-store.js';
import { MemorySeenStore } from './memory-seen-store.js';
import type { SeenKey, SeenRecord } from './seen-store.js';

const NOW = 1_750_000_000_000;
const record = (revision = 1, eventTimeEpochMs = NOW - 5_000): SeenRecord => ({
  revision,
  contentHash: `h${revision}`,
  sourceVersion: 0,
  sourceUpdatedEpochMs: 0,
  eventTimeEpochMs,
});
const strike = (i: number): SeenKey => ({ feed: 'lightning', sourceId: `s${i}` });
const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

function harness(viewCapacity = 1_000) {
  const inner = new MemorySeenStore();
  const store = new BatchingSeenStore(inner, { maxItems: 100, maxDelayMs: 2, viewCapacity, viewWindowMs: 60_000 }, () => NOW);
  return { inner, store };
}

describe('BatchingSeenStore', () => {
  it('answers fresh strikes from memory once the view is loaded, and known ones too', async () => {
    const { inner, store } = harness();
    await inner.insert(strike(1), record());
    await store.find(strike(0), NOW - 5_000); // starts the load; answered by the database meanwhile
    await tick();
    const before = inner.calls.findMany;
    assert.equal(await store.find(strike(2), NOW - 5_000), null);
    assert.deepEqual(await store.find(strike(1), NOW - 5_000), record());
    assert.equal(inner.calls.findMany, before, 'no database look-up after the load');
    assert.equal(inner.calls.findSince, 1);
    assert.ok(store.stats.fromView >= 2);
  });

  it('batches concurrent look-ups the view cannot answer into one database call, each caller getting its own answer', async () => {
    const { inner, store } = harness();
    await inner.insert({ feed: 'precipitation', sourceId: 'p3' }, record(4));
    const keys = Array.from({ length: 50 }, (_, i) => ({ feed: 'precipitation' as const, sourceId: `p${i}` }));
    const found = await Promise.all(keys.map((k) => store.find(k, NOW)));
    assert.equal(inner.calls.findMany, 1);
    assert.equal(inner.calls.find, 0);
    assert.deepEqual(found[3], record(4));
    assert.equal(found.filter((f) => f === null).length, 49);
  });

  it('writes concurrent inserts as one insertMany, refusing the existing keys', async () => {
    const { inner, store } = harness();
    await inner.insert(strike(7), record());
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => store.insert(strike(i), record())));
    assert.equal(inner.calls.insertMany, 1);
    assert.equal(created.filter((c) => !c).length, 1);
    assert.equal(created[7], false);
  });

  it('after a refused insert the database answers for that key, not the view', async () => {
    const { inner, store } = harness();
    await store.find(strike(0), NOW - 5_000);
    await tick();
    // Someone else (another member, before a rebalance) wrote s9 after the view was read.
    await inner.insert(strike(9), record(2));
    assert.equal(await store.find(strike(9), NOW - 5_000), null, 'the view trusts its absence');
    assert.equal(await store.insert(strike(9), record()), false);
    assert.deepEqual(await store.find(strike(9), NOW - 5_000), record(2), 'now read from the database');
  });

  it('forget drops the views; they are read from the database again', async () => {
    const { inner, store } = harness();
    await store.find(strike(0), NOW - 5_000);
    await tick();
    await inner.insert(strike(5), record(3));
    store.forget();
    assert.deepEqual(await store.find(strike(5), NOW - 5_000), record(3));
    await tick();
    assert.equal(inner.calls.findSince, 2);
  });

  it('a replace that the database refuses also sends the key back to the database', async () => {
    const { inner, store } = harness();
    await inner.insert(strike(1), record(1));
    assert.deepEqual(await store.find(strike(1), NOW - 5_000), record(1));
    await inner.replace(strike(1), 1, record(2));
    assert.equal(await store.replace(strike(1), 1, record(2)), false);
    assert.deepEqual(await store.find(strike(1), NOW - 5_000), record(2));
  });
});
