import assert from 'node:assert/strict';
import { json, TestReceiver } from '../test-support/receiver.js';
import { alarmEvent, endpointConfig, startHarness, type NotifierHarness } from '../test-support/harness.js';
import { until } from '../test-support/until.js';

describe('webhook delivery: takeover between instances and endpoint isolation (FerretDB + local receiver)', function () {
  this.timeout(30_000);
  let h: NotifierHarness;
  const receiver = new TestReceiver();

  before(async () => {
    h = await startHarness();
    await receiver.start();
  });
  after(async () => {
    await h?.close();
    await receiver.stop();
  });

  const ack = (body: string): object => ({ id: (JSON.parse(body) as { id: string }).id, status: 'SUCCESS', timeEpochMillis: Date.now() });

  it('a worker stopped mid-retry leaves the retry in the database and a new instance makes it', async () => {
    receiver.on('/resume', (r, res, n) => (n === 1 ? json(res, 500, {}) : json(res, 200, ack(r.body))));
    const account = 'acc-resume';
    assert.ok(
      (
        await h.endpoints.create(
          account,
          endpointConfig(receiver.url('/resume'), { deliveryPolicy: { timeoutMs: 2_000, maxRetries: 3, retryDelaySeconds: 1 } }),
        )
      ).ok,
    );
    const first = h.instance();
    const event = alarmEvent(account);
    await first.accept.execute(event);
    await until(async () => ((await h.store.get(event.notificationId))?.attempts.length === 1 ? true : undefined), 'first attempt recorded');
    await first.worker.stop();

    const second = h.instance();
    const delivery = await until(async () => {
      const d = await h.store.get(event.notificationId);
      return d?.status === 'succeeded' ? d : undefined;
    }, 'delivered by the second instance');
    assert.deepEqual(
      delivery.attempts.map((a) => [a.attemptNumber, a.responseStatus]),
      [
        [1, 500],
        [2, 200],
      ],
    );
    assert.equal(receiver.at('/resume').length, 2, 'nothing lost, nothing sent twice');
    await second.worker.stop();
  });

  it('an instance killed mid-attempt loses its lease and another instance delivers after it expires', async () => {
    let hang = true;
    receiver.on('/killed', async (r, res) => {
      if (hang) {
        hang = false;
        await new Promise((resolve) => setTimeout(resolve, 1_500)); // the attempt the dying instance never sees end
        res.destroy();
        return;
      }
      json(res, 200, ack(r.body));
    });
    const account = 'acc-killed';
    assert.ok(
      (
        await h.endpoints.create(
          account,
          endpointConfig(receiver.url('/killed'), { deliveryPolicy: { timeoutMs: 1_000, maxRetries: 3, retryDelaySeconds: 1 } }),
        )
      ).ok,
    );
    const dying = h.instance({ leaseMs: 1_500 });
    const event = alarmEvent(account);
    await dying.accept.execute(event);
    await receiver.waitFor('/killed', 1);
    await dying.worker.stop({ graceMs: 0 }); // abandons the attempt in flight: nothing is recorded
    assert.equal((await h.store.get(event.notificationId))?.attempts.length, 0);

    const started = Date.now();
    const survivor = h.instance({ leaseMs: 1_500 });
    const delivery = await until(async () => {
      const d = await h.store.get(event.notificationId);
      return d?.status === 'succeeded' ? d : undefined;
    }, 'taken over after the lease expired');
    assert.ok(Date.now() - started < 5_000);
    assert.deepEqual(
      delivery.attempts.map((a) => a.attemptNumber),
      [2],
      'the lost attempt keeps its number',
    );
    const ids = receiver.at('/killed').map((r) => r.headers['webhook-id']);
    assert.deepEqual(ids, [event.notificationId, event.notificationId], 'at least once, same webhook-id');
    await survivor.worker.stop();
  });

  it('a slow endpoint does not delay deliveries to a fast one', async () => {
    // The slow endpoint answers nothing until the fast deliveries are all in, so the test depends on
    // order, not on how fast a loaded machine is: were fast deliveries queued behind slow ones, they
    // would wait for the slow attempts' 30 s timeout, past the 20 s this waits.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    receiver.on('/slow-ep', async (r, res) => {
      await gate;
      json(res, 200, ack(r.body));
    });
    receiver.on('/fast-ep', (r, res) => json(res, 200, ack(r.body)));
    assert.ok(
      (
        await h.endpoints.create(
          'acc-slow',
          endpointConfig(receiver.url('/slow-ep'), { deliveryPolicy: { timeoutMs: 30_000, maxRetries: 0, retryDelaySeconds: 1 } }),
        )
      ).ok,
    );
    assert.ok((await h.endpoints.create('acc-fast', endpointConfig(receiver.url('/fast-ep')))).ok);
    const { accept, worker } = h.instance({ concurrency: 8, perEndpointConcurrency: 2 });
    try {
      for (let i = 0; i < 10; i++) await accept.execute(alarmEvent('acc-slow'));
      for (let i = 0; i < 10; i++) await accept.execute(alarmEvent('acc-fast'));
      await receiver.waitFor('/fast-ep', 10, 20_000);
      assert.ok(receiver.at('/slow-ep').length <= 2, 'the slow endpoint is held at its concurrency limit');
    } finally {
      release();
      await worker.stop({ graceMs: 0 });
    }
  });
});
