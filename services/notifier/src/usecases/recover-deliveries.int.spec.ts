import assert from 'node:assert/strict';
import { RECOVERED_HEADER } from '@stormhook/webhooks';
import { WebhookStatsRecorder } from '../delivery/webhook-stats-recorder.js';
import type { Delivery } from '../domain/delivery.js';
import { MongoRecoveryJobStore } from '../persistence/mongo-recovery-job-store.js';
import { MongoWebhookStatsStore } from '../persistence/mongo-webhook-stats-store.js';
import { systemClock } from '../ports/clock.js';
import { alarmEvent, endpointConfig, startHarness, type NotifierHarness } from '../test-support/harness.js';
import { TestReceiver } from '../test-support/receiver.js';
import { until } from '../test-support/until.js';
import { RecoverDeliveries, type RecoveryJobView, type RecoveryRequest } from './recover-deliveries.js';
import { WebhookStatsReader } from './webhook-stats-reader.js';

/**
 * A receiver down for a stretch, then back: each mode of a recovery sends exactly what it promises,
 * with the original ids, marked recovered, and the dry run counts the same.
 */
describe('webhook recovery (FerretDB + local receiver)', function () {
  this.timeout(90_000);
  let h: NotifierHarness;
  const receiver = new TestReceiver();
  let recoveries: RecoverDeliveries;
  let accept: ReturnType<NotifierHarness['instance']>['accept'];
  let cache: ReturnType<NotifierHarness['instance']>['cache'];
  const account = 'acc-recover';
  let up = true;
  const registrationId = '5a1f38f4-6a0e-4c5e-9a39-5f0c2f9c8d11';
  /** The deliveries of the test, by name. */
  const sent = new Map<string, string>();
  let window: { since: Date; until: Date };

  before(async () => {
    h = await startHarness();
    await receiver.start();
    const recorder = new WebhookStatsRecorder(
      { store: new MongoWebhookStatsStore(h.mongo.db), clock: systemClock, logger: h.logger },
      { writerId: 'writer-recover', flushIntervalMs: 60_000, maxAccountsPerFlush: 100 },
    );
    const instance = h.instance({}, undefined, { stats: recorder });
    accept = instance.accept;
    cache = instance.cache;
    recoveries = new RecoverDeliveries({
      store: h.store,
      jobs: new MongoRecoveryJobStore(h.mongo.db),
      endpoints: h.endpointRepo,
      stats: recorder,
      progress: new WebhookStatsReader({ recorder, store: new MongoWebhookStatsStore(h.mongo.db), writersCacheMs: 0 }),
      clock: systemClock,
      logger: h.logger,
      worker: instance.worker,
      maxCallbacks: 1_000,
      ratePerSecond: 1_000,
      retentionDays: 30,
    });
    receiver.on('/rcv', (_r, res) => {
      res.writeHead(up ? 204 : 503);
      res.end();
    });
    // No retries: each delivery made while the receiver is down dies after one attempt.
    assert.ok(
      (await h.endpoints.create(account, endpointConfig(receiver.url('/rcv'), { deliveryPolicy: { timeoutMs: 2_000, maxRetries: 0, retryDelaySeconds: 1 } })))
        .ok,
    );

    const since = new Date(Date.now() - 1_000);
    const deliver = async (name: string, eventId: string, type: string): Promise<void> => {
      const event = alarmEvent(account, { registrationId, eventId, payloadJson: JSON.stringify({ type, n: name }), acknowledgementId: `ack-${name}` });
      sent.set(name, event.notificationId);
      await accept.execute(event);
      await finished(event.notificationId);
    };
    await deliver('rain-start', 'rain-1', 'precipitation.start'); // received
    up = false;
    await deliver('storm1-start', 'storm-1', 'thunderstorm.start');
    await deliver('storm1-update1', 'storm-1', 'thunderstorm.update');
    await deliver('storm1-update2', 'storm-1', 'thunderstorm.update');
    await deliver('storm1-end', 'storm-1', 'thunderstorm.end');
    await deliver('storm2-start', 'storm-2', 'thunderstorm.start');
    await deliver('rain-end', 'rain-1', 'precipitation.end');
    up = true;
    window = { since, until: new Date() };
  });
  after(async () => {
    await h?.close();
    await receiver.stop();
  });

  const finished = (id: string): Promise<Delivery> => h.finished(id, 10_000);
  const ids = (...names: string[]): string[] => names.map((n) => sent.get(n) as string).sort();
  const request = (mode: RecoveryRequest['mode']): RecoveryRequest => ({ mode, ...window });

  /** Runs a recovery to its end; answers the callbacks it made the receiver get. */
  async function recover(mode: RecoveryRequest['mode']): Promise<{ job: RecoveryJobView; callbacks: typeof receiver.requests }> {
    const before = receiver.requests.length;
    const started = await recoveries.start(account, request(mode));
    assert.ok(started.ok, JSON.stringify(started));
    const job = await until(async () => {
      const read = await recoveries.get(account, started.value.id);
      return read.ok && read.value.state === 'DONE' ? read.value : undefined;
    }, `recovery ${mode} done`);
    return { job, callbacks: receiver.requests.slice(before) };
  }

  it('counts in a dry run what each mode would send, per callback type', async () => {
    const failed = await recoveries.dryRun(account, request('failed'));
    assert.ok(failed.ok);
    assert.deepEqual(failed.value, {
      total: 6,
      byType: { 'precipitation.end': 1, 'thunderstorm.end': 1, 'thunderstorm.start': 2, 'thunderstorm.update': 2 },
    });
    const all = await recoveries.dryRun(account, request('all'));
    assert.ok(all.ok);
    assert.equal(all.value.total, 7);
    const latest = await recoveries.dryRun(account, request('latest-state'));
    assert.ok(latest.ok);
    assert.deepEqual(latest.value, { total: 3, byType: { 'precipitation.end': 1, 'thunderstorm.end': 1, 'thunderstorm.start': 1 } });
  });

  it('failed: sends each dead delivery once, with its original id, marked recovered', async () => {
    const { job, callbacks } = await recover('failed');
    assert.deepEqual([job.total, job.sent, job.failed], [6, 6, 0]);
    assert.deepEqual(
      callbacks.map((c) => c.headers['webhook-id']).sort(),
      ids('storm1-start', 'storm1-update1', 'storm1-update2', 'storm1-end', 'storm2-start', 'rain-end'),
    );
    for (const c of callbacks) {
      assert.equal(c.headers[RECOVERED_HEADER], job.id);
      assert.equal((JSON.parse(c.body) as { recovered?: unknown }).recovered, true);
    }
  });

  it('latest-state: one callback per event, in its current phase', async () => {
    const { job, callbacks } = await recover('latest-state');
    assert.deepEqual([job.total, job.sent], [3, 3]);
    assert.deepEqual(callbacks.map((c) => c.headers['webhook-id']).sort(), ids('storm1-end', 'storm2-start', 'rain-end'));
  });

  it('all: every finished delivery of the window, the ones received before included', async () => {
    const { job, callbacks } = await recover('all');
    assert.equal(job.sent, 7);
    assert.deepEqual(callbacks.map((c) => c.headers['webhook-id']).sort(), ids(...sent.keys()));
  });

  it('refuses a window it cannot serve and a disabled webhook, naming the field', async () => {
    const backwards = await recoveries.dryRun(account, { mode: 'failed', since: window.until, until: window.since });
    assert.equal(!backwards.ok && backwards.error.kind === 'validation' && backwards.error.field, 'since');
    const tooOld = await recoveries.dryRun(account, { mode: 'failed', since: new Date(Date.now() - 31 * 86_400_000), until: new Date() });
    assert.equal(!tooOld.ok && tooOld.error.kind === 'validation' && tooOld.error.field, 'since');
    const other = await recoveries.get('acc-other', 'rcv_unknown');
    assert.equal(!other.ok && other.error.kind, 'not-found');
    const endpoint = await h.endpointRepo.findByAccount(account);
    assert.ok(endpoint);
    await h.endpointRepo.disable(endpoint, 'test', new Date());
    const disabled = await recoveries.start(account, request('failed'));
    assert.equal(!disabled.ok && disabled.error.kind === 'validation' && disabled.error.field, 'webhook');
  });

  it('sends, after enable, what arrived while the webhook was disabled', async () => {
    // The webhook is disabled (previous test, behind the instance's back): its endpoint cache learns it
    // as it does from a disable on another instance, by a fresh read.
    cache.invalidate((await h.endpointRepo.findByAccount(account))?.id as string);
    const since = new Date(Date.now() - 1);
    const event = alarmEvent(account, { registrationId, eventId: 'storm-3', payloadJson: JSON.stringify({ type: 'thunderstorm.start', n: 'while-disabled' }) });
    await accept.execute(event);
    assert.equal((await finished(event.notificationId)).failureReason, 'endpoint-disabled');
    assert.equal(receiver.requests.filter((r) => r.headers['webhook-id'] === event.notificationId).length, 0);
    assert.ok((await h.endpoints.enable(account)).ok);
    const before = receiver.requests.length;
    const started = await recoveries.start(account, { mode: 'failed', since, until: new Date() });
    assert.ok(started.ok);
    assert.equal(started.value.total, 1);
    await until(async () => {
      const read = await recoveries.get(account, started.value.id);
      return read.ok && read.value.state === 'DONE' ? true : undefined;
    }, 'recovery of the disabled stretch done');
    assert.deepEqual(
      receiver.requests.slice(before).map((r) => r.headers['webhook-id']),
      [event.notificationId],
    );
  });
});
