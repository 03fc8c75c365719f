import assert from 'node:assert/strict';
import { createLogger } from '@stormhook/logger';
import { connectMongo, type MongoHandle } from '@stormhook/mongo';
import { testInfra, uniqueName } from '@stormhook/testing';
import { INDEX_ENTRY_CODEC, type IndexEntry } from '../read-models/entry.js';
import { SegmentLog } from './segment-log.js';

const logger = createLogger({ service: 'query-test', level: 'silent' });

function entry(id: string, time: number, revision = 1): IndexEntry {
  return { eventId: id, revision, time, startTime: time, rank: 2, flags: 0, bbox: { minLng: 30, minLat: 38, maxLng: 31, maxLat: 39 }, areas: ['TUR:6'] };
}

async function loadAll(log: SegmentLog<IndexEntry>, cutoff = 0): Promise<Map<string, IndexEntry>> {
  const latest = new Map<string, IndexEntry>();
  await log.load(cutoff, (e) => {
    const held = latest.get(e.eventId);
    if (!held || held.revision < e.revision) latest.set(e.eventId, e);
  });
  return latest;
}

describe('the index log (journal and segments) on the real database', () => {
  let mongo: MongoHandle;
  const options = { codec: INDEX_ENTRY_CODEC, maxEntries: 3, maxAgeMs: 60_000, logger };

  before(async () => {
    mongo = await connectMongo({ url: testInfra().mongoUrl, dbName: uniqueName('query_log').replace(/-/g, '_'), appName: 'query-test' });
  });
  after(async () => {
    await mongo?.db.dropDatabase();
    await mongo?.close();
  });

  it('gives back after a restart every entry appended, compacted or not, duplicates once, newest revision winning', async () => {
    const log = new SegmentLog(mongo.db, 'restart', options);
    await log.load(0, () => undefined);
    for (let i = 0; i < 5; i++) await log.append(entry(`e${i}`, 1000 + i));
    await log.append(entry('e1', 1001)); // a re-delivery: same id and revision
    await log.roll(); // 5 entries >= 3: the journal becomes a segment
    await log.append(entry('e2', 5000, 2)); // a later revision, still in a journal
    assert.equal(log.stats().segments, 1);

    const reopened = new SegmentLog(mongo.db, 'restart', options);
    const latest = await loadAll(reopened);
    assert.deepEqual([...latest.keys()].sort(), ['e0', 'e1', 'e2', 'e3', 'e4']);
    assert.equal(latest.get('e2')?.revision, 2);
    assert.equal(latest.get('e2')?.time, 5000);
  });

  it('expires whole segments past the cutoff and skips expired entries at load', async () => {
    const log = new SegmentLog(mongo.db, 'expiry', options);
    await log.load(0, () => undefined);
    for (const t of [100, 200, 300]) await log.append(entry(`old${t}`, t));
    await log.roll();
    for (const t of [900, 1000, 1100]) await log.append(entry(`new${t}`, t));
    await log.roll();
    assert.equal(await log.expire(500), 1);
    const reopened = new SegmentLog(mongo.db, 'expiry', options);
    assert.deepEqual([...(await loadAll(reopened, 1000)).keys()].sort(), ['new1000', 'new1100']);
  });
});
