import assert from 'node:assert/strict';
import { createLogger } from '@stormhook/logger';
import { connectMongo, type MongoHandle } from '@stormhook/mongo';
import { testInfra } from '@stormhook/testing';
import { COLLECTIONS } from '../persistence/collections.js';
import { MongoDeliveryStore } from '../persistence/mongo-delivery-store.js';
import { systemClock } from '../ports/clock.js';
import { queueEntry } from '../ports/delivery-store.js';
import { SsrfPolicy } from '../security/ssrf-policy.js';
import { NodeWebhookSender } from '../http/node-sender.js';
import { RecordingPublisher } from '../test-support/recording-publisher.js';
import { alarmEvent, endpointConfig, startHarness, type NotifierHarness } from '../test-support/harness.js';
import { TestReceiver } from '../test-support/receiver.js';
import { until } from '../test-support/until.js';
import { deliveryFromEvent } from '../usecases/accept-alarm.js';
import { DeliveryWorker } from './delivery-worker.js';
import { EndpointCache } from './endpoint-cache.js';
import { EndpointHealth } from './endpoint-health.js';

const CLAIMERS = 8;
const DELIVERIES = 1_000;

describe('claim race: 8 notifier instances over 1,000 due deliveries (FerretDB + local receiver)', function () {
  this.timeout(180_000);
  let h: NotifierHarness;
  const receiver = new TestReceiver();
  const connections: MongoHandle[] = [];
  const workers: DeliveryWorker[] = [];
  const senders: NodeWebhookSender[] = [];

  before(async () => {
    h = await startHarness();
    await receiver.start();
  });
  after(async () => {
    await Promise.all(workers.map((w) => w.stop({ graceMs: 0 })));
    for (const s of senders) s.close();
    await Promise.all(connections.map((c) => c.close()));
    await h?.close();
    await receiver.stop();
  });

  it('attempts every delivery exactly once: at the receiver and in the attempt log', async () => {
    const account = 'acc-race';
    const created = await h.endpoints.create(
      account,
      endpointConfig(receiver.url('/race'), { deliveryPolicy: { timeoutMs: 5_000, maxRetries: 0, retryDelaySeconds: 1 } }),
    );
    assert.ok(created.ok);

    // 1,000 deliveries already due in the queue (as retries or overflow would leave them), no hold.
    const now = new Date(Date.now() - 1_000);
    const events = Array.from({ length: DELIVERIES }, () => alarmEvent(account));
    await Promise.all(events.map((e) => h.store.insert(deliveryFromEvent(e, created.value.endpoint.id, now))));
    await Promise.all(events.map((e) => h.store.enqueue(queueEntry(deliveryFromEvent(e, created.value.endpoint.id, now), created.value.endpoint.id, now, {}))));

    // Eight instances, each with its own connection, store, cache and sender, started at once: every
    // one reads the same due entries and races the others for each of them.
    const infra = testInfra();
    const logger = createLogger({ service: 'claim-race', level: 'error' });
    const publisher = new RecordingPublisher();
    for (let i = 0; i < CLAIMERS; i++) {
      const mongo = await connectMongo({ url: infra.mongoUrl, dbName: h.mongo.db.databaseName, appName: `claimer-${i}` });
      connections.push(mongo);
      const cache = new EndpointCache(h.endpointRepo);
      const sender = new NodeWebhookSender({ policy: new SsrfPolicy(['127.0.0.1/32']), maxBodyBytes: 20_000, userAgent: 'Stormhook-Webhooks/test' });
      senders.push(sender);
      const health = new EndpointHealth({ repository: h.endpointRepo, cache, publisher, clock: systemClock, logger, autoDisableAfterMs: 60 * 60 * 1000 });
      workers.push(
        new DeliveryWorker(
          { store: new MongoDeliveryStore(mongo.db), endpoints: cache, health, sender, publisher, clock: systemClock, logger },
          { instanceId: `claimer-${i}`, pollIntervalMs: 200 },
        ),
      );
    }
    for (const worker of workers) worker.start();

    await receiver.waitFor('/race', DELIVERIES, 150_000).catch(async (error: unknown) => {
      // Say where the missing ones stand: queue entry, claims, attempts.
      const sent = new Set(receiver.at('/race').map((r) => String(r.headers['webhook-id'])));
      const missing = events.filter((e) => !sent.has(e.notificationId)).slice(0, 3);
      for (const e of missing) {
        const q = await h.mongo.db.collection(COLLECTIONS.queue).findOne({ _id: e.notificationId as never });
        const l = await h.mongo.db.collection(COLLECTIONS.leases).find({ deliveryId: e.notificationId }).toArray();
        const a = await h.mongo.db.collection(COLLECTIONS.attempts).find({ deliveryId: e.notificationId }).toArray();
        console.error(JSON.stringify({ id: e.notificationId, queued: q, claims: l, attempts: a.length }));
      }
      throw error;
    });
    const attempts = h.mongo.db.collection<{ deliveryId: string }>(COLLECTIONS.attempts);
    await until(async () => ((await attempts.countDocuments()) >= DELIVERIES ? true : undefined), 'every attempt recorded', 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // room for a late double send to show

    const perId = new Map<string, number>();
    for (const r of receiver.at('/race')) perId.set(String(r.headers['webhook-id']), (perId.get(String(r.headers['webhook-id'])) ?? 0) + 1);
    const doubles = [...perId].filter(([, n]) => n > 1);
    assert.equal(
      doubles.length,
      0,
      `sent more than once: ${doubles
        .slice(0, 5)
        .map(([id, n]) => `${id} x${n}`)
        .join(', ')}`,
    );
    assert.deepEqual(new Set(perId.keys()), new Set(events.map((e) => e.notificationId)), 'every delivery sent');

    const logged = await attempts.find({}, { projection: { deliveryId: 1 } }).toArray();
    assert.equal(logged.length, DELIVERIES, 'one attempt log entry per delivery');
    assert.equal(new Set(logged.map((a) => a.deliveryId)).size, DELIVERIES);

    // The race was real: the work was spread over several claimers, each claim a unique lease.
    // (A claim may also be won for a delivery finished a moment before, and then dropped unsent.)
    const leases = await h.mongo.db
      .collection<{ owner: string }>(COLLECTIONS.leases)
      .find({}, { projection: { owner: 1 } })
      .toArray();
    assert.ok(leases.length >= DELIVERIES, `${leases.length} won claims`);
    const owners = new Set(leases.map((l) => l.owner));
    assert.ok(owners.size >= 2, `claims spread over ${owners.size} instance(s)`);
  });
});
