import assert from 'node:assert/strict';
import { json, TestReceiver } from '../test-support/receiver.js';
import { alarmEvent, endpointConfig, startHarness, type NotifierHarness } from '../test-support/harness.js';
import { until } from '../test-support/until.js';

describe('webhook delivery: a timing-out endpoint is probed, not flooded (FerretDB + local receiver)', function () {
  this.timeout(60_000);
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

  it('holds an endpoint whose requests time out to 2 in flight, and gives it its slots back once it answers', async () => {
    let alive = false;
    let open = 0;
    let closed = 0;
    // Requests open at once among those that arrived after the first wave (8, all slots) timed out.
    let maxOpenAfterFirstWave = 0;
    receiver.on('/flaky-dead', (r, res) => {
      if (alive) return json(res, 200, { id: (JSON.parse(r.body) as { id: string }).id, status: 'SUCCESS', timeEpochMillis: Date.now() });
      open++;
      if (closed >= 8) maxOpenAfterFirstWave = Math.max(maxOpenAfterFirstWave, open);
      res.on('close', () => {
        open--;
        closed++;
      });
    });
    const account = 'acc-flaky-dead';
    assert.ok(
      (
        await h.endpoints.create(
          account,
          endpointConfig(receiver.url('/flaky-dead'), { deliveryPolicy: { timeoutMs: 300, maxRetries: 10, retryDelaySeconds: 1 } }),
        )
      ).ok,
    );
    const { accept, worker } = h.instance({ perEndpointConcurrency: 8 });
    const events = Array.from({ length: 16 }, () => alarmEvent(account));
    for (const event of events) await accept.execute(event);

    await receiver.waitFor('/flaky-dead', 8, 10_000); // the first wave: all 8 slots
    await until(async () => (receiver.at('/flaky-dead').length >= 14 ? true : undefined), 'probes after the first wave', 30_000);
    assert.ok(closed >= 8, 'the first wave timed out');
    assert.ok(maxOpenAfterFirstWave >= 1 && maxOpenAfterFirstWave <= 2, `1 or 2 requests in flight once it timed out, saw ${maxOpenAfterFirstWave}`);

    alive = true;
    await until(
      async () => {
        const delivered = await Promise.all(events.map((e) => h.store.get(e.notificationId)));
        return delivered.every((d) => d?.status === 'succeeded') ? true : undefined;
      },
      'every delivery succeeds once the endpoint answers',
      40_000,
    );
    await worker.stop({ graceMs: 0 });
  });
});
