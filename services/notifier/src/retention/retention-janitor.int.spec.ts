import assert from 'node:assert/strict';
import { createLogger } from '@stormhook/logger';
import { connectMongo, databaseName, type MongoHandle } from '@stormhook/mongo';
import { testInfra, uniqueName } from '@stormhook/testing';
import { COLLECTIONS, ensureNotifierIndexes } from '../persistence/collections.js';
import { RetentionJanitor } from './retention-janitor.js';

const DAY = 86_400_000;

describe('retention janitor (real database)', function () {
  this.timeout(60_000);
  let mongo: MongoHandle;
  const now = new Date('2026-06-01T00:00:00Z');
  const logger = createLogger({ service: 'retention-test', level: 'silent' });

  before(async () => {
    mongo = await connectMongo({
      url: testInfra().mongoUrl,
      dbName: databaseName('notifier', uniqueName('ret').replace(/-/g, '_')),
      appName: 'retention-test',
    });
    await ensureNotifierIndexes(mongo.db);
  });
  after(async () => {
    await mongo?.db.dropDatabase();
    await mongo?.close();
  });

  it('deletes deliveries, attempts, attempt claims, endpoint changes and the message log past their retention, in batches, and nothing younger', async () => {
    const seed = async (collection: string, field: string, ages: number[]) =>
      mongo.db
        .collection(collection)
        .insertMany(ages.map((days, i) => ({ _id: `${field}-${days}-${i}` as never, [field]: new Date(now.getTime() - days * DAY) })));
    // 45 days old: past the 30-day delivery retention. 10 and 29 days: kept.
    await seed(COLLECTIONS.deliveries, 'createdAt', [...Array<number>(7).fill(45), 10, 29]);
    await seed(COLLECTIONS.attempts, 'startedAt', [45, 45, 45, 1]);
    await seed(COLLECTIONS.leases, 'claimedAt', [31, 2]);
    await seed(COLLECTIONS.recoveryJobs, 'createdAt', [40, 3]);
    await seed(COLLECTIONS.endpointChanges, 'at', [35, 1]);
    // The message log keeps 7 days in this test.
    await seed(COLLECTIONS.messages, 'updatedAt', [8, 8, 6]);
    await seed(COLLECTIONS.messageLeases, 'claimedAt', [8, 1]);
    // Work not done yet is never trimmed, however old.
    await seed(COLLECTIONS.messageOutbox, 'nextAttemptAt', [400]);

    const janitor = new RetentionJanitor(
      mongo.db,
      { days: { deliveries: 30, messages: 7 }, intervalMs: 60_000, batchSize: 3, pauseMs: 0 },
      { now: () => now },
      logger,
    );
    const deleted = await janitor.runOnce();
    assert.deepEqual(deleted, {
      [COLLECTIONS.deliveries]: 7,
      [COLLECTIONS.attempts]: 3,
      [COLLECTIONS.leases]: 1,
      [COLLECTIONS.recoveryJobs]: 1,
      [COLLECTIONS.endpointChanges]: 1,
      [COLLECTIONS.messages]: 2,
      [COLLECTIONS.messageLeases]: 1,
    });
    const left = async (collection: string) => (await mongo.db.collection(collection).find({}).toArray()).map((d) => String(d['_id'])).sort();
    assert.deepEqual(await left(COLLECTIONS.deliveries), ['createdAt-10-7', 'createdAt-29-8']);
    assert.deepEqual(await left(COLLECTIONS.attempts), ['startedAt-1-3']);
    assert.deepEqual(await left(COLLECTIONS.recoveryJobs), ['createdAt-3-1']);
    assert.deepEqual(await left(COLLECTIONS.endpointChanges), ['at-1-1']);
    assert.deepEqual(await left(COLLECTIONS.leases), ['claimedAt-2-1']);
    assert.deepEqual(await left(COLLECTIONS.messages), ['updatedAt-6-2']);
    assert.deepEqual(await left(COLLECTIONS.messageOutbox), ['nextAttemptAt-400-0']);
    assert.deepEqual(await janitor.runOnce(), {
      [COLLECTIONS.deliveries]: 0,
      [COLLECTIONS.attempts]: 0,
      [COLLECTIONS.leases]: 0,
      [COLLECTIONS.recoveryJobs]: 0,
      [COLLECTIONS.endpointChanges]: 0,
      [COLLECTIONS.messages]: 0,
      [COLLECTIONS.messageLeases]: 0,
    });
  });

  it('keeps a class forever at 0 days', async () => {
    await mongo.db.collection(COLLECTIONS.messages).insertOne({ _id: 'ancient' as never, updatedAt: new Date(0) });
    const janitor = new RetentionJanitor(mongo.db, { days: { deliveries: 30, messages: 0 }, intervalMs: 60_000 }, { now: () => now }, logger);
    const deleted = await janitor.runOnce();
    assert.equal(deleted[COLLECTIONS.messages], undefined);
    assert.ok(await mongo.db.collection(COLLECTIONS.messages).findOne({ _id: 'ancient' as never }));
  });
});
