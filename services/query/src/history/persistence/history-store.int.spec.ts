import assert from 'node:assert/strict';
import { createLogger } from '@stormhook/logger';
import { connectMongo, type MongoHandle } from '@stormhook/mongo';
import { enumValue, queryV1, weatherV1 } from '@stormhook/proto';
import { testInfra, uniqueName } from '@stormhook/testing';
import { DAY_MS, HOUR_MS } from '../domain/buckets.js';
import { storedRecord, type StoredRecord } from '../domain/record.js';
import { lightning, precipitation, thunderstorm } from '../test-support/weather-values.js';
import { readHistory } from '../usecases/read-history.js';
import { lightningRecord } from './describe-lightning.js';
import { HistoryStore, type HistoryStoreOptions } from './history-store.js';

const logger = createLogger({ service: 'query-test', level: 'silent' });
// Noon of a day, a few days back: the records of the tests lie in the three days before.
const NOW = Math.floor(Date.now() / DAY_MS) * DAY_MS - 2 * DAY_MS + 12 * HOUR_MS;
const D0 = Math.floor(NOW / DAY_MS) * DAY_MS - 3 * DAY_MS;
// Ankara, and a box of about 10 km around a point in it.
const HERE = { lng: 32.85, lat: 39.93 };
const BOX = { minLng: 32.79, minLat: 39.885, maxLng: 32.91, maxLat: 39.975 };

const strike = (lng: number, lat: number, t: number) => lightningRecord(weatherV1.LightningEvent.encode(lightning(lng, lat, t)), t);
const storm = (lng: number, lat: number, t: number) => {
  const m = thunderstorm(lng, lat, t);
  return storedRecord('THUNDERSTORM', m, weatherV1.ThunderstormEvent.encode(m), t);
};
const rain = (lng: number, lat: number, t: number) => {
  const m = precipitation(lng, lat, t);
  return storedRecord('PRECIPITATION', m, weatherV1.PrecipitationEvent.encode(m), t);
};

function request(over: Partial<queryV1.ReadHistoryRequest> = {}): queryV1.ReadHistoryRequest {
  return { fromEpochMs: D0, toEpochMs: NOW, box: BOX, kinds: [], pageToken: '', maxPageBytes: 0, ...over };
}

/** Every record of a read, page after page, as `<kind> <hex of value>`. */
async function readAll(
  store: HistoryStore,
  over: Partial<queryV1.ReadHistoryRequest> = {},
): Promise<{ records: string[]; pages: number; first: queryV1.ReadHistoryResponse }> {
  const records: string[] = [];
  let token = '';
  let pages = 0;
  let first: queryV1.ReadHistoryResponse | undefined;
  do {
    const page = await readHistory(store, request({ ...over, pageToken: token }));
    first ??= page;
    pages++;
    let last = -Infinity;
    for (const r of page.records) {
      assert.ok(r.ingestedEpochMs >= last, 'oldest first');
      last = r.ingestedEpochMs;
      records.push(`${r.kind} ${Buffer.from(r.value).toString('hex')}`);
    }
    token = page.nextPageToken;
  } while (token !== '');
  return { records, pages, first: first! };
}

const expected = (records: readonly StoredRecord[]) => records.map((r) => `${enumValue(queryV1.HistoryKind, r.kind)} ${Buffer.from(r.value).toString('hex')}`);

describe('the weather history store on the real database', function () {
  this.timeout(60_000);
  let mongo: MongoHandle;
  let clock = NOW;
  const options: HistoryStoreOptions = {
    retentionMs: 30 * DAY_MS,
    journalMaxRecords: 1_000,
    journalMaxAgeMs: 60_000,
    cacheBytes: 1 << 20,
    logger,
    now: () => clock,
  };

  before(async () => {
    mongo = await connectMongo({ url: testInfra().mongoUrl, dbName: uniqueName('query_history').replace(/-/g, '_'), appName: 'query-test' });
  });
  after(async () => {
    await mongo?.db.dropDatabase();
    await mongo?.close();
  });

  it('reads by window and box from journal and chunks, pages, keeps a re-delivered record once, and reloads it all after a restart', async () => {
    clock = NOW;
    const store = new HistoryStore(mongo.db, options);
    await store.load();
    const inside: StoredRecord[] = [];
    const outside: StoredRecord[] = [];
    for (let i = 0; i < 300; i++) {
      const t = D0 + 1_000 + i * 11 * 60_000; // two and a bit days
      inside.push(strike(HERE.lng + ((i % 9) - 4) * 0.01, HERE.lat + ((i % 7) - 3) * 0.01, t));
      outside.push(strike(HERE.lng + 0.5, HERE.lat, t + 1)); // 40 km east
      if (i % 30 === 0) {
        inside.push(storm(HERE.lng + 0.05, HERE.lat - 0.2, t + 2)); // threat area reaches the box from the south
        outside.push(rain(HERE.lng - 1, HERE.lat, t + 3));
      }
    }
    const all = [...inside, ...outside].sort((a, b) => a.ingestedMs - b.ingestedMs);
    await store.append(all.slice(0, 250), 'batch-1');
    await store.roll(true); // the first batch becomes chunks
    await store.append(all.slice(250), 'batch-2');
    const again = await store.append(all.slice(240, 260), 'batch-2b'); // re-delivered: 10 compacted, 10 in the journal
    assert.equal(again.stored, 0);
    assert.ok(store.stats().chunks > 0 && store.stats().journalRecords > 0);

    const want = expected(inside);
    const { records, pages } = await readAll(store, { maxPageBytes: 2_000 });
    assert.ok(pages > 5, `${pages} pages`);
    assert.deepEqual([...records].sort(), [...want].sort());
    assert.equal(new Set(records).size, records.length);

    // A window of half a day and one kind.
    const from = D0 + DAY_MS;
    const to = from + 12 * HOUR_MS;
    const half = await readAll(store, { fromEpochMs: from, toEpochMs: to, kinds: ['HISTORY_KIND_LIGHTNING'] });
    assert.deepEqual(half.records.sort(), expected(inside.filter((r) => r.kind === 'LIGHTNING' && r.ingestedMs >= from && r.ingestedMs < to)).sort());

    const reopened = new HistoryStore(mongo.db, options);
    const loaded = await reopened.load();
    assert.ok(loaded.journalRecords > 0 && loaded.chunks > 0);
    assert.deepEqual((await readAll(reopened)).records.sort(), [...want].sort());
    // Compacted and merged after the restart: still the same records, once each.
    await reopened.roll(true);
    assert.equal(reopened.stats().journalRecords, 0);
    const merged = await readAll(reopened);
    assert.deepEqual(merged.records.sort(), [...want].sort());
  });

  it('reports the hours with data of each kind anywhere, a day without strikes left out', async () => {
    clock = NOW;
    const db = mongo.db.client.db(uniqueName('query_history_cov').replace(/-/g, '_'));
    try {
      const store = new HistoryStore(db, options);
      await store.load();
      // Strikes far from the box on days 0 and 2, none on day 1; rain on day 1 only.
      const day0 = strike(27.1, 38.4, D0 + 5 * HOUR_MS + 10);
      const day2 = strike(27.1, 38.4, D0 + 2 * DAY_MS + 7 * HOUR_MS);
      await store.bulkAppend([day0, day2]);
      await store.append([rain(27, 38, D0 + DAY_MS + 3 * HOUR_MS)], 'rain');
      const page = await readHistory(store, request());
      assert.deepEqual(page.records, []);
      const covered = Object.fromEntries(page.coverage.map((c) => [c.kind, c.covered]));
      assert.deepEqual(covered['HISTORY_KIND_LIGHTNING'], [
        { fromEpochMs: D0 + 5 * HOUR_MS, toEpochMs: D0 + 6 * HOUR_MS },
        { fromEpochMs: D0 + 2 * DAY_MS + 7 * HOUR_MS, toEpochMs: D0 + 2 * DAY_MS + 8 * HOUR_MS },
      ]);
      assert.deepEqual(covered['HISTORY_KIND_PRECIPITATION'], [{ fromEpochMs: D0 + DAY_MS + 3 * HOUR_MS, toEpochMs: D0 + DAY_MS + 4 * HOUR_MS }]);
      assert.deepEqual(covered['HISTORY_KIND_THUNDERSTORM'], []);
    } finally {
      await db.dropDatabase();
    }
  });

  it('drops whole days past retention and skips older records of younger days', async () => {
    clock = NOW;
    const db = mongo.db.client.db(uniqueName('query_history_ret').replace(/-/g, '_'));
    try {
      const store = new HistoryStore(db, options);
      await store.load();
      const records = [0, 1, 2].flatMap((d) => [
        strike(HERE.lng, HERE.lat, D0 + d * DAY_MS + HOUR_MS),
        strike(HERE.lng, HERE.lat, D0 + d * DAY_MS + 20 * HOUR_MS),
      ]);
      await store.bulkAppend(records);
      const before = store.stats().chunks;
      // 30 days later, retention reaches into day 1 (after its first strike).
      clock = D0 + DAY_MS + 2 * HOUR_MS + 30 * DAY_MS;
      assert.equal(await store.expire(), 1);
      assert.equal(store.stats().chunks, before - 1);
      const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
      assert.equal(names.filter((n) => n.startsWith('history_chunks_')).length, 2);
      const page = await readHistory(store, request({ fromEpochMs: D0, toEpochMs: D0 + 3 * DAY_MS }));
      assert.deepEqual(
        page.records.map((r) => Buffer.from(r.value).toString('hex')),
        records.slice(3).map((r) => Buffer.from(r.value).toString('hex')),
      );
      assert.equal(page.retainedFromEpochMs, clock - 30 * DAY_MS);
      const reopened = new HistoryStore(db, options);
      await reopened.load();
      assert.equal(reopened.stats().chunks, before - 1);
    } finally {
      clock = NOW;
      await db.dropDatabase();
    }
  });

  it('forgets the chunks of a compaction a crash interrupted and compacts its journal again', async () => {
    clock = NOW;
    const db = mongo.db.client.db(uniqueName('query_history_crash').replace(/-/g, '_'));
    try {
      const store = new HistoryStore(db, options);
      await store.load();
      const records = Array.from({ length: 50 }, (_, i) => strike(HERE.lng, HERE.lat, D0 + i * 60_000));
      await store.append(records, 'b1');
      const journal = db.collection('history_journal_0000000001');
      const docs = await journal.find({}).toArray();
      assert.equal(docs.length, 1);
      await store.roll(true);
      assert.ok(store.stats().chunks > 0);
      // The journal comes back, as if the crash had come between the chunks and the drop.
      await journal.insertMany(docs);
      const reopened = new HistoryStore(db, options);
      const loaded = await reopened.load();
      assert.equal(loaded.removed, store.stats().chunks);
      assert.equal(loaded.journalRecords, 50);
      await reopened.roll(true);
      const again = new HistoryStore(db, options);
      await again.load();
      assert.deepEqual((await readAll(again)).records.sort(), expected(records).sort());
    } finally {
      await db.dropDatabase();
    }
  });
});
