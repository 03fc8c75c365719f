import assert from 'node:assert/strict';
import { WebhookStatsRecorder } from '../delivery/webhook-stats-recorder.js';
import type { Delivery } from '../domain/delivery.js';
import { LATENCY_BOUNDS_MS } from '../domain/histogram.js';
import { MongoWebhookStatsStore } from '../persistence/mongo-webhook-stats-store.js';
import { systemClock } from '../ports/clock.js';
import { alarmEvent, endpointConfig, startHarness, type NotifierHarness } from '../test-support/harness.js';
import { json, TestReceiver } from '../test-support/receiver.js';
import { until } from '../test-support/until.js';
import { WebhookHealth, type WebhookHealthView } from './webhook-health.js';
import { WebhookStatsReader } from './webhook-stats-reader.js';

/**
 * The health answer against a real receiver: two notifier instances (two statistics writers, each
 * its own process in production) deliver to it, and what the answer says is compared with what the
 * receiver recorded.
 */
describe('webhook health (FerretDB + local receiver, two instances)', function () {
  this.timeout(60_000);
  let h: NotifierHarness;
  const receiver = new TestReceiver();
  let statsStore: MongoWebhookStatsStore;
  let recorders: WebhookStatsRecorder[];
  let health: WebhookHealth;

  before(async () => {
    h = await startHarness();
    await receiver.start();
    statsStore = new MongoWebhookStatsStore(h.mongo.db);
    const recorder = (writerId: string) =>
      new WebhookStatsRecorder({ store: statsStore, clock: systemClock, logger: h.logger }, { writerId, flushIntervalMs: 60_000, maxAccountsPerFlush: 100 });
    recorders = [recorder('writer-a'), recorder('writer-b')];
    // The answer is computed by instance A: its own share from memory, B's from what B wrote.
    health = new WebhookHealth({
      endpoints: h.endpointRepo,
      stats: new WebhookStatsReader({ recorder: recorders[0] as WebhookStatsRecorder, store: statsStore, writersCacheMs: 0 }),
      clock: systemClock,
    });
  });
  after(async () => {
    await h?.close();
    await receiver.stop();
  });

  const finished = (id: string): Promise<Delivery> => h.finished(id);
  const healthOf = async (accountId: string): Promise<WebhookHealthView> => {
    await Promise.all(recorders.map((r) => r.flush()));
    const answer = await health.get(accountId);
    assert.ok(answer.ok, 'the account has a webhook');
    return answer.value;
  };

  it('counts exactly what the receiver saw, across instances, with percentiles within one bucket', async () => {
    // Every third delivery's first attempt gets 503; its retry succeeds. Successes take ~30 ms.
    receiver.on('/mixed', async (r, res) => {
      const body = JSON.parse(r.body) as { id: string; n: number };
      const firstTry = receiver.at('/mixed').filter((x) => x.body === r.body).length === 1;
      if (body.n % 3 === 0 && firstTry) return json(res, 503, { error: 'busy' });
      await new Promise((resolve) => setTimeout(resolve, 30));
      json(res, 200, { id: body.id, status: 'SUCCESS', timeEpochMillis: Date.now() });
    });
    const account = 'acc-health-mixed';
    assert.ok(
      (await h.endpoints.create(account, endpointConfig(receiver.url('/mixed'), { deliveryPolicy: { timeoutMs: 5_000, maxRetries: 2, retryDelaySeconds: 1 } })))
        .ok,
    );
    const a = h.instance({}, undefined, { stats: recorders[0] });
    const b = h.instance({}, undefined, { stats: recorders[1] });
    const events = Array.from({ length: 12 }, (_, n) =>
      alarmEvent(account, {
        // The weather happened 25 s before it was raised: the age on receipt is ~25 s.
        occurredAtEpochMs: Date.now() - 25_000,
        payloadJson: JSON.stringify({ id: `ack-${n}`, n }),
        acknowledgementId: `ack-${n}`,
      }),
    );
    await Promise.all(events.map((event, n) => (n % 2 === 0 ? a : b).accept.execute(event)));
    for (const event of events) assert.equal((await finished(event.notificationId)).status, 'succeeded');

    const requests = receiver.at('/mixed');
    const failed = requests.filter((r) => (JSON.parse(r.body) as { n: number }).n % 3 === 0).length / 2; // one 503 per such delivery
    assert.equal(requests.length, 16, '12 deliveries, 4 of them twice');
    const view = await healthOf(account);
    assert.equal(view.state, 'ENABLED');
    for (const window of [view.figures.lastHour, view.figures.last24Hours, view.figures.last7Days]) {
      assert.equal(window.attempts, requests.length);
      assert.equal(window.failed, failed);
      assert.equal(window.succeeded, requests.length - failed);
    }
    assert.equal(view.figures.lastHour.successRate, 12 / 16);
    assert.deepEqual(
      view.figures.failures.map((g) => [g.failureClass, g.status, g.count]),
      [['HTTP_5XX', 503, failed]],
    );
    const example = view.figures.failures[0]?.example;
    assert.ok(example && events.some((e) => e.notificationId === example.notificationId), 'the example is one of the failed deliveries');
    // The percentiles against the round trips the attempt log recorded: each is the upper bound of the
    // bucket holding the exact nearest-rank value (or the maximum, when that is lower).
    const durations = (await Promise.all(events.map(async (e) => (await h.store.get(e.notificationId))?.attempts ?? [])))
      .flat()
      .map((attempt) => attempt.durationMs)
      .sort((x, y) => x - y);
    assert.equal(durations.length, requests.length);
    for (const [q, reported] of [
      [0.5, view.figures.lastHour.latencyMs.p50],
      [0.95, view.figures.lastHour.latencyMs.p95],
      [0.99, view.figures.lastHour.latencyMs.p99],
    ] as const) {
      const exact = durations[Math.ceil(q * durations.length) - 1] as number;
      const bound = Math.min(LATENCY_BOUNDS_MS.find((b) => b >= exact) ?? Infinity, durations.at(-1) as number);
      assert.equal(reported, bound, `p${q * 100}: exact ${exact} ms, reported ${String(reported)} ms`);
    }
    const age = view.figures.lastHour.weatherAgeMs.p50 ?? 0;
    assert.ok(age >= 25_000 && age <= 30_000, `weather age p50 ${age} ms (25 s and the delivery time, in the bucket (20 s, 30 s])`);
    assert.equal(view.figures.waiting, 0, 'every delivery finished');
    assert.equal(view.figures.failuresInRow, 0);
    const writers = await statsStore.writers(new Date(Date.now() - 60_000));
    assert.deepEqual(writers.sort(), ['writer-a', 'writer-b'], 'both instances wrote their share');
  });

  it('says FAILING with the failures in a row, the waiting delivery and its next retry', async () => {
    receiver.on('/down', (_r, res) => json(res, 500, { error: 'down' }));
    const account = 'acc-health-down';
    assert.ok(
      (await h.endpoints.create(account, endpointConfig(receiver.url('/down'), { deliveryPolicy: { timeoutMs: 2_000, maxRetries: 3, retryDelaySeconds: 60 } })))
        .ok,
    );
    const a = h.instance({}, undefined, { stats: recorders[0] });
    const event = alarmEvent(account);
    const before = Date.now();
    await a.accept.execute(event);
    await receiver.waitFor('/down', 1);
    const view = await until(async () => {
      const v = await healthOf(account);
      return v.state === 'FAILING' && v.figures.failuresInRow === 1 ? v : undefined;
    }, 'the webhook reported failing');
    assert.ok(view.failingSince && view.failingSince.getTime() >= before);
    assert.equal(view.figures.waiting, 1, 'the delivery waits for its retry');
    const next = view.figures.nextRetryAt ?? 0;
    assert.ok(next >= before + 59_000 && next <= Date.now() + 61_000, 'the retry a minute after the failure');
    assert.deepEqual(
      view.figures.failures.map((g) => [g.failureClass, g.status, g.count]),
      [['HTTP_5XX', 500, 1]],
    );
  });

  it('says DISABLED with the reason once the receiver answers 410 Gone', async () => {
    receiver.on('/gone', (_r, res) => json(res, 410, { error: 'gone' }));
    const account = 'acc-health-gone';
    assert.ok((await h.endpoints.create(account, endpointConfig(receiver.url('/gone')))).ok);
    const a = h.instance({}, undefined, { stats: recorders[0] });
    const event = alarmEvent(account);
    await a.accept.execute(event);
    await finished(event.notificationId);
    const view = await healthOf(account);
    assert.equal(view.state, 'DISABLED');
    assert.match(view.disabledReason ?? '', /410/);
    assert.deepEqual(
      view.figures.failures.map((g) => [g.failureClass, g.status]),
      [['HTTP_4XX', 410]],
    );
    assert.equal(view.figures.waiting, 0);
  });

  it('answers 404 for an account without a webhook', async () => {
    const answer = await health.get('acc-without-webhook');
    assert.equal(answer.ok, false);
  });
});
