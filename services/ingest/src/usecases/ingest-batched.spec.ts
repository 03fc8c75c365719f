import assert from 'node:assert/strict';
import { BatchingSeenStore } from '../dedup/batching-seen-store.js';
import { MemorySeenStore } from '../dedup/memory-seen-store.js';
import { DEFAULT_RULES } from '../domain/rules.js';
import { lightning, NOW } from '../test-support/feed-fixtures.js';
import { RecordingSink } from '../test-support/recording-sink.js';
import { IngestRecord } from './ingest-record.js';

/** The use case over the batching seen-store, as the service runs it: many records in flight at once. */
function setup() {
  const inner = new MemorySeenStore();
  const store = new BatchingSeenStore(inner, { maxItems: 500, maxDelayMs: 2, viewCapacity: 10_000, viewWindowMs: 60 * 60_000 }, () => NOW);
  const sink = new RecordingSink();
  const ingest = new IngestRecord({ store, sink, rules: DEFAULT_RULES, clock: () => NOW });
  return { inner, store, sink, ingest };
}

const strikes = (count: number, extra: Parameters<typeof lightning>[0] = {}) =>
  Array.from({ length: count }, (_, i) => ({ feed: 'lightning' as const, message: lightning({ sourceEventId: `strike-${i}`, ...extra }, NOW) }));

describe('IngestRecord over the batching seen-store', () => {
  it('records concurrent strikes with one insertMany, and drops their re-sends without touching the database', async () => {
    const { inner, store, sink, ingest } = setup();
    await ingest.execute(strikes(1, { sourceEventId: 'warm-up' })[0]!); // reads the view once
    await new Promise((resolve) => setTimeout(resolve, 5));
    const before = { ...inner.calls };
    const results = await Promise.all(strikes(300).map((input) => ingest.execute(input)));
    assert.ok(results.every((r) => r.kind === 'published'));
    assert.equal(sink.published.length, 301);
    assert.equal(inner.calls.insertMany - before.insertMany, 1, 'one insertMany for the 300 strikes');
    assert.equal(inner.calls.findMany - before.findMany, 0, 'fresh strikes are known absent without a look-up');
    assert.equal(inner.entries.size, 301);

    const again = await Promise.all(strikes(300).map((input) => ingest.execute(input)));
    assert.ok(again.every((r) => r.kind === 'duplicate'));
    assert.equal(sink.published.length, 301, 'no re-publish');
    assert.equal(inner.calls.findMany - before.findMany, 0);
    assert.ok(store.stats.fromView >= 600);
  });

  it('publishes a corrected strike as revision 2 from the view', async () => {
    const { sink, ingest } = setup();
    await ingest.execute(strikes(1)[0]!);
    const update = await ingest.execute(strikes(1, { version: 2, peakCurrentAmperes: -9_000 })[0]!);
    assert.equal(update.kind, 'published');
    if (update.kind === 'published') assert.equal(update.revision, 2);
    assert.equal(sink.published.length, 2);
  });

  it('after a crash between publishing and recording, the redelivery publishes the same event ids and records them', async () => {
    const { inner, sink, ingest } = setup();
    const realInsertMany = inner.insertMany.bind(inner);
    inner.insertMany = async () => {
      throw new Error('database unavailable');
    };
    const failed = await Promise.allSettled(strikes(20).map((input) => ingest.execute(input)));
    assert.ok(failed.every((r) => r.status === 'rejected'));
    assert.equal(inner.entries.size, 0, 'published but not recorded');
    inner.insertMany = realInsertMany;
    const redelivered = await Promise.all(strikes(20).map((input) => ingest.execute(input)));
    assert.ok(redelivered.every((r) => r.kind === 'published'));
    assert.equal(inner.entries.size, 20);
    const ids = sink.published.map((p) => p.event.eventId);
    assert.deepEqual(ids.slice(20).sort(), ids.slice(0, 20).sort(), 'the same Kafka event ids again: readers see each strike once');
  });

  it('decides again from the database when another consumer recorded a strike behind the view', async () => {
    const { inner, ingest } = setup();
    await ingest.execute(strikes(1, { sourceEventId: 'warm-up' })[0]!);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const [input] = strikes(1);
    // Another member published and recorded the same strike after this view was read.
    const other = setup();
    await other.ingest.execute(input!);
    for (const [id, record] of other.inner.entries) inner.entries.set(id, record);
    const result = await ingest.execute(input!);
    assert.equal(result.kind, 'duplicate', 'the refused insert sends the key to the database, which knows it');
  });
});
