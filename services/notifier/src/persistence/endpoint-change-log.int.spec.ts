import assert from 'node:assert/strict';
import { MongoClient, type CommandStartedEvent } from 'mongodb';
import { createLogger } from '@stormhook/logger';
import { testInfra } from '@stormhook/testing';
import { EndpointCache } from '../delivery/endpoint-cache.js';
import { EndpointChangeWatcher } from '../delivery/endpoint-change-watcher.js';
import type { WebhookEndpoint } from '../domain/endpoint.js';
import { startHarness, type NotifierHarness } from '../test-support/harness.js';
import { COLLECTIONS } from './collections.js';
import { MongoEndpointChangeLog } from './mongo-endpoint-change-log.js';
import { MongoEndpointRepository } from './mongo-endpoint-repository.js';

const logger = createLogger({ service: 'change-log-it', level: 'silent' });

/**
 * The endpoint change log on FerretDB: numbers taken by unique inserts, so instances recording at once
 * never share one and never skip one, and a write made on one instance reaches another's cache.
 */
describe('MongoEndpointChangeLog (FerretDB)', function () {
  this.timeout(60_000);
  let h: NotifierHarness;

  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
  });

  it('numbers the changes of two instances recording at once 1..n, each once', async () => {
    const a = new MongoEndpointChangeLog(h.mongo.db, logger);
    const b = new MongoEndpointChangeLog(h.mongo.db, logger);
    const at = new Date();
    await Promise.all([
      ...Array.from({ length: 15 }, (_, i) => a.record({ endpointId: `ep_a${i}`, accountId: `acc_a${i}` }, at)),
      ...Array.from({ length: 15 }, (_, i) => b.record({ endpointId: `ep_b${i}`, accountId: `acc_b${i}` }, at)),
    ]);
    const reader = new MongoEndpointChangeLog(h.mongo.db, logger);
    assert.equal(await reader.head(), 30);
    const seen: string[] = [];
    for (let seq = 1; seq <= 30; seq++) {
      const change = await reader.read(seq);
      assert.ok(change, `change ${seq} is there`);
      assert.equal(change.seq, seq);
      seen.push(change.endpointId);
    }
    assert.equal(new Set(seen).size, 30, 'every change recorded once');
    assert.equal(await reader.read(31), null);
    await h.mongo.db.collection(COLLECTIONS.endpointChanges).deleteMany({});
  });

  it('records the changes one process makes at once one after another, one insert each (no race for the same number)', async () => {
    const commands: CommandStartedEvent[] = [];
    const client = new MongoClient(testInfra().mongoUrl, { monitorCommands: true, appName: 'change-log-it' });
    client.on('commandStarted', (event) => commands.push(event));
    await client.connect();
    try {
      const log = new MongoEndpointChangeLog(client.db(h.mongo.db.databaseName), logger);
      await Promise.all(Array.from({ length: 40 }, (_, i) => log.record({ endpointId: `ep_${i}`, accountId: `acc_${i}` }, new Date())));
      const inserts = commands.filter((c) => c.commandName === 'insert' && c.command['insert'] === COLLECTIONS.endpointChanges).length;
      assert.equal(inserts, 40);
      assert.equal(await log.head(), 40);
      // FerretDB 1.x answers `_id` equality from its index for text only: a number would scan the log.
      assert.equal(await log.read(41), null);
      const reads = commands.filter((c) => c.commandName === 'find' && c.command['find'] === COLLECTIONS.endpointChanges);
      const filter = reads.at(-1)?.command['filter'] as { _id?: unknown } | undefined;
      assert.equal(typeof filter?._id, 'string');
    } finally {
      await client.close();
      await h.mongo.db.collection(COLLECTIONS.endpointChanges).deleteMany({});
    }
  });

  it("brings a disable made through one instance's repository to another instance's cache at its next look", async () => {
    const logA = new MongoEndpointChangeLog(h.mongo.db, logger);
    const logB = new MongoEndpointChangeLog(h.mongo.db, logger);
    const repoA = new MongoEndpointRepository(h.mongo.db, h.cipher, logA);
    const repoB = new MongoEndpointRepository(h.mongo.db, h.cipher, logB);
    const created = await h.endpoints.create('acc_watch', { url: 'http://127.0.0.1:9/hook' });
    assert.ok(created.ok, JSON.stringify(created));
    const id = created.value.endpoint.id;
    const cacheB = new EndpointCache(repoB, 3_600_000);
    const watcherB = new EndpointChangeWatcher({ log: logB, cache: cacheB, logger }, { intervalMs: 3_600_000, headCheckMs: 3_600_000 });
    await watcherB.start();
    try {
      assert.equal((await cacheB.byAccount('acc_watch'))?.status, 'enabled');
      assert.equal(await repoA.disable({ id, accountId: 'acc_watch' }, 'test', new Date()), true);
      const recorded = await logB.read(await logB.head());
      assert.deepEqual([recorded?.endpointId, recorded?.accountId], [id, 'acc_watch']);
      assert.equal((await cacheB.byAccount('acc_watch'))?.status, 'enabled', 'not heard of yet: the copy in memory');
      assert.equal(await watcherB.poll(), 1);
      await cacheB.byAccount('acc_watch'); // served while read again
      const deadline = Date.now() + 5_000;
      let seen: WebhookEndpoint | null = null;
      while (Date.now() < deadline && (seen = await cacheB.byAccount('acc_watch'))?.status !== 'disabled') await new Promise((r) => setTimeout(r, 10));
      assert.equal(seen?.status, 'disabled');
    } finally {
      await watcherB.stop();
    }
  });
});
