import assert from 'node:assert/strict';
import { MongoClient, type Db } from 'mongodb';
import { testInfra, uniqueName } from '@stormhook/testing';
import type { SeenKey, SeenRecord } from '../dedup/seen-store.js';
import { MongoSeenStore } from './mongo-seen-store.js';

const record = (revision: number, eventTimeEpochMs: number): SeenRecord => ({
  revision,
  contentHash: `hash-${revision}`,
  sourceVersion: revision,
  sourceUpdatedEpochMs: 0,
  eventTimeEpochMs,
});
const strike = (id: string): SeenKey => ({ feed: 'lightning', sourceId: id });

describe('MongoSeenStore batch operations (real database)', function () {
  this.timeout(30_000);
  let mongo: MongoClient;
  let db: Db;
  let store: MongoSeenStore;

  before(async () => {
    mongo = new MongoClient(testInfra().mongoUrl);
    db = mongo.db(uniqueName('ingest_seen_it').replace(/-/g, '_'));
    store = MongoSeenStore.open(db);
  });

  after(async () => {
    await db.dropDatabase();
    await mongo.close();
  });

  it('insertMany writes new keys unordered and reports the existing ones as refused, leaving them unchanged', async () => {
    assert.equal(await store.insert(strike('a2'), record(7, 1_000)), true);
    const created = await store.insertMany([
      { key: strike('a1'), record: record(1, 1_000) },
      { key: strike('a2'), record: record(1, 1_000) },
      { key: strike('a3'), record: record(1, 2_000) },
      { key: strike('a3'), record: record(2, 2_000) },
    ]);
    assert.deepEqual(created, [true, false, true, false], 'the existing key and the second a3 are refused, the rest written');
    assert.deepEqual(await store.find(strike('a2')), record(7, 1_000), 'a refused insert changes nothing');
    assert.deepEqual(await store.find(strike('a3')), record(1, 2_000));
    assert.deepEqual(await store.insertMany([]), []);
  });

  it('findMany answers each key in order, null where there is none', async () => {
    const keys = [strike('a3'), strike('none'), strike('a1'), { feed: 'precipitation' as const, sourceId: 'a1' }];
    assert.deepEqual(await store.findMany(keys), [record(1, 2_000), null, record(1, 1_000), null]);
    const many = Array.from({ length: 150 }, (_, i) => strike(`m${i}`));
    await store.insertMany(many.map((key, i) => ({ key, record: record(1, 10_000 + i) })));
    const found = await store.findMany(many);
    assert.deepEqual(
      found.map((r) => r?.eventTimeEpochMs),
      many.map((_, i) => 10_000 + i),
    );
  });

  it("findSince reads one feed's entries from an event time on", async () => {
    await store.insert({ feed: 'thunderstorm', sourceId: 'cell' }, record(1, 50_000));
    const since = await store.findSince('lightning', 10_100);
    assert.equal(since.length, 50);
    assert.ok(since.every(({ key, record: r }) => key.feed === 'lightning' && key.sourceId.startsWith('m') && r.eventTimeEpochMs >= 10_100));
  });
});
