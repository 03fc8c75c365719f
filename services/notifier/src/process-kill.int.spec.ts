import assert from 'node:assert/strict';
import { createClient, testInternalTokens, tokenOfRequestPrincipal } from '@stormhook/grpc';
import { notificationV1 } from '@stormhook/proto';
import { MongoDeliveryStore } from './persistence/mongo-delivery-store.js';
import { alarmEvent } from './test-support/harness.js';
import { createKafkaTestEnv, type KafkaTestEnv } from './test-support/kafka-env.js';
import { spawnNotifier, type NotifierProcess } from './test-support/notifier-process.js';
import { json, TestReceiver } from './test-support/receiver.js';
import { until } from './test-support/until.js';

describe('notifier process killed with SIGKILL mid-retry (real processes, broker, FerretDB)', function () {
  this.timeout(90_000);
  const receiver = new TestReceiver();
  let world: KafkaTestEnv;
  const started: NotifierProcess[] = [];

  before(async () => {
    await receiver.start();
    world = await createKafkaTestEnv();
  });
  after(async () => {
    for (const p of started) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(started.map((p) => p.exited));
    await world?.cleanup();
    await receiver.stop();
  });

  it('a new process finishes the delivery: nothing lost, no attempt sent twice', async () => {
    // The receiver fails the first two attempts, then acknowledges.
    receiver.on('/hook', (r, res, n) =>
      n <= 2
        ? json(res, 500, { error: 'down' })
        : json(res, 200, { id: (JSON.parse(r.body) as { id: string }).id, status: 'SUCCESS', timeEpochMillis: Date.now() }),
    );
    const first = await spawnNotifier(world.env);
    started.push(first);
    const client = createClient(notificationV1.NotifierService, `127.0.0.1:${first.grpcPort}`, {
      // Only the alarm-matcher creates endpoints (packages/grpc GRPC_RPC_CALLERS).
      internalToken: tokenOfRequestPrincipal(testInternalTokens('alarm-matcher'), 'notifier'),
    });
    const account = 'acc-kill';
    await client.createWebhookEndpoint({
      accountId: account,
      ownerEmail: '',
      config: {
        url: receiver.url('/hook'),
        httpMethod: 'POST',
        contentType: 'application/json',
        requestHeaders: {},
        deliveryPolicy: { timeoutMs: 2_000, maxRetries: 5, retryDelaySeconds: 2 },
      },
    });
    client.close();

    const event = alarmEvent(account);
    await world.publishAlarm(event);
    // Read through the store: the delivery's state is its document folded with its attempt log.
    const store = new MongoDeliveryStore(world.mongo.db);
    // Mid-retry: the first failure is recorded and the retry is scheduled (lease given back), due in 2 s.
    await until(
      async () => {
        const [delivery, entry] = await Promise.all([store.get(event.notificationId), store.getQueueEntry(event.notificationId)]);
        return delivery?.attempts.length === 1 && entry?.leaseOwner === null && entry.attempt === 2 && entry.dueAt > new Date();
      },
      'first attempt recorded and the retry scheduled',
      20_000,
    );
    first.child.kill('SIGKILL');
    assert.equal(await first.exited, 'SIGKILL');
    assert.equal(receiver.at('/hook').length, 1);

    const second = await spawnNotifier(world.env);
    started.push(second);
    const done = await until(
      async () => {
        const delivery = await store.get(event.notificationId);
        return delivery?.status === 'succeeded' ? delivery : undefined;
      },
      'the delivery completed by the new process',
      30_000,
    );

    assert.deepEqual(
      done.attempts.map((a) => [a.attemptNumber, a.responseStatus]),
      [
        [1, 500],
        [2, 500],
        [3, 200],
      ],
    );
    const received = receiver.at('/hook');
    assert.equal(received.length, 3, 'each attempt sent exactly once');
    assert.ok(
      received.every((r) => r.headers['webhook-id'] === event.notificationId),
      'every attempt carries the same webhook-id',
    );
    const gaps = received.slice(1).map((r, i) => r.at - (received[i]?.at ?? 0));
    assert.ok(
      gaps.every((gap) => gap >= 1_900),
      `attempts at least retryDelay apart, got ${gaps.join(', ')} ms`,
    );
    assert.equal(
      await until(async () => ((await store.getQueueEntry(event.notificationId)) === null ? true : undefined), 'the finished delivery left the work queue'),
      true,
    );

    second.child.kill('SIGTERM');
    assert.equal(await second.exited, 0, second.lines.slice(-5).join('\n'));
  });
});
