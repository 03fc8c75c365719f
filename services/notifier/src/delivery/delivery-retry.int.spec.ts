import assert from 'node:assert/strict';
import { json, TestReceiver } from '../test-support/receiver.js';
import { alarmEvent, endpointConfig, startHarness, type NotifierHarness } from '../test-support/harness.js';
import { until } from '../test-support/until.js';
import type { Delivery } from '../domain/delivery.js';

describe('webhook delivery: policy, retries and acknowledgements (FerretDB + local receiver)', function () {
  this.timeout(30_000);
  let h: NotifierHarness;
  const receiver = new TestReceiver();
  let accept: ReturnType<NotifierHarness['instance']>['accept'];

  before(async () => {
    h = await startHarness();
    await receiver.start();
    accept = h.instance().accept;
  });
  after(async () => {
    await h?.close();
    await receiver.stop();
  });

  const finished = (id: string): Promise<Delivery> => h.finished(id, 15_000);

  it('times out each attempt, retries maxRetries times retryDelay apart, then dies and publishes DeliveryFailed', async () => {
    receiver.on('/slow', async (_r, res) => {
      await new Promise((r) => setTimeout(r, 800));
      res.end();
    });
    const account = 'acc-timeout';
    assert.ok(
      (await h.endpoints.create(account, endpointConfig(receiver.url('/slow'), { deliveryPolicy: { timeoutMs: 200, maxRetries: 2, retryDelaySeconds: 1 } })))
        .ok,
    );
    const event = alarmEvent(account);
    await accept.execute(event);
    const delivery = await finished(event.notificationId);
    assert.equal(delivery.status, 'dead');
    assert.equal(delivery.attempts.length, 3, '1 attempt + 2 retries');
    assert.deepEqual(
      delivery.attempts.map((a) => a.attemptNumber),
      [1, 2, 3],
    );
    for (const a of delivery.attempts) {
      assert.match(a.error ?? '', /timed out after 200 ms/);
      assert.ok(a.durationMs < 700, `attempt cut at the timeout (${a.durationMs} ms)`);
    }
    const starts = receiver.at('/slow').map((r) => r.at);
    assert.equal(starts.length, 3);
    for (let i = 1; i < starts.length; i++) {
      const gap = (starts[i] as number) - (starts[i - 1] as number);
      assert.ok(gap >= 1_150 && gap < 3_000, `attempts ${i} and ${i + 1} are timeout + retryDelay apart (${gap} ms)`);
    }
    const failed = await until(async () => h.publisher.failures.find((f) => f.notificationId === event.notificationId), 'DeliveryFailed');
    assert.equal(failed.reason, 'DELIVERY_FAILURE_REASON_RETRIES_EXHAUSTED');
    assert.equal(failed.attemptCount, 3);
    await until(async () => ((await h.store.get(event.notificationId))?.failureEventPending === false ? true : undefined), 'outbox cleared after publishing');
  });

  it('retries a 5xx and succeeds on the next attempt, with one webhook-id across attempts', async () => {
    receiver.on('/flaky', (r, res, n) =>
      n === 1 ? json(res, 503, { error: 'busy' }) : json(res, 200, { id: JSON.parse(r.body).id, status: 'SUCCESS', timeEpochMillis: Date.now() }),
    );
    const account = 'acc-flaky';
    assert.ok(
      (await h.endpoints.create(account, endpointConfig(receiver.url('/flaky'), { deliveryPolicy: { timeoutMs: 2_000, maxRetries: 3, retryDelaySeconds: 1 } })))
        .ok,
    );
    const event = alarmEvent(account);
    await accept.execute(event);
    const delivery = await finished(event.notificationId);
    assert.equal(delivery.status, 'succeeded');
    assert.deepEqual(
      delivery.attempts.map((a) => [a.responseStatus, a.succeeded]),
      [
        [503, false],
        [200, true],
      ],
    );
    assert.equal(delivery.attempts[0]?.responseBody, '{"error":"busy"}');
    assert.ok(delivery.attempts[0]?.nextAttemptAt, 'the failed attempt names its next attempt time');
    const ids = receiver.at('/flaky').map((r) => r.headers['webhook-id']);
    assert.deepEqual(ids, [event.notificationId, event.notificationId]);
  });

  it('counts an acknowledgement with the wrong id as a failure and retries', async () => {
    receiver.on('/ack', (r, res, n) =>
      json(res, 200, { id: n === 1 ? 'someone-else' : JSON.parse(r.body).id, status: 'SUCCESS', timeEpochMillis: Date.now() }),
    );
    const account = 'acc-ack';
    assert.ok(
      (await h.endpoints.create(account, endpointConfig(receiver.url('/ack'), { deliveryPolicy: { timeoutMs: 2_000, maxRetries: 2, retryDelaySeconds: 1 } })))
        .ok,
    );
    const event = alarmEvent(account);
    await accept.execute(event);
    const delivery = await finished(event.notificationId);
    assert.equal(delivery.status, 'succeeded');
    assert.equal(delivery.attempts.length, 2);
    assert.match(delivery.attempts[0]?.error ?? '', /acknowledgement id "someone-else" does not match/);
  });

  it('never follows a redirect and counts a 301 as a failure', async () => {
    receiver.on('/moved', (_r, res) => {
      res.writeHead(301, { location: receiver.url('/target') });
      res.end();
    });
    const account = 'acc-redirect';
    assert.ok((await h.endpoints.create(account, endpointConfig(receiver.url('/moved')))).ok);
    const event = alarmEvent(account);
    await accept.execute(event);
    const delivery = await finished(event.notificationId);
    assert.equal(delivery.status, 'dead');
    assert.equal(delivery.attempts[0]?.responseStatus, 301);
    assert.match(delivery.attempts[0]?.error ?? '', /redirects are not followed/);
    assert.equal(receiver.at('/target').length, 0);
  });

  it('keeps at most 20,000 bytes of a response body', async () => {
    receiver.on('/huge', (_r, res) => {
      res.writeHead(500);
      res.end('x'.repeat(100_000));
    });
    const account = 'acc-huge';
    assert.ok((await h.endpoints.create(account, endpointConfig(receiver.url('/huge')))).ok);
    const event = alarmEvent(account);
    await accept.execute(event);
    const attempt = (await finished(event.notificationId)).attempts[0];
    assert.equal(attempt?.responseBody.length, 20_000);
    assert.equal(attempt?.responseBodyTruncated, true);
  });

  it('disables the endpoint at once on 410 Gone and asks for the owner e-mail', async () => {
    receiver.on('/gone', (_r, res) => json(res, 410, {}));
    const account = 'acc-gone';
    assert.ok(
      (
        await h.endpoints.create(
          account,
          endpointConfig(receiver.url('/gone'), { deliveryPolicy: { timeoutMs: 2_000, maxRetries: 5, retryDelaySeconds: 1 } }),
          'owner@example.com',
        )
      ).ok,
    );
    const event = alarmEvent(account);
    await accept.execute(event);
    const delivery = await finished(event.notificationId);
    assert.equal(delivery.status, 'dead');
    assert.equal(delivery.attempts.length, 1, 'no retries after 410');
    const endpoint = await until(async () => {
      const e = await h.endpoints.get(account);
      return e.ok && e.value.status === 'disabled' ? e.value : undefined;
    }, 'endpoint disabled');
    assert.match(endpoint.disabledReason ?? '', /410/);
    const mail = await until(async () => h.publisher.messages.find((m) => m.template === 'MESSAGE_TEMPLATE_ENDPOINT_DISABLED'), 'owner e-mail');
    assert.equal(mail?.recipient, 'owner@example.com');
    const failed = await until(async () => h.publisher.failures.find((f) => f.notificationId === event.notificationId), 'DeliveryFailed');
    assert.equal(failed.reason, 'DELIVERY_FAILURE_REASON_ENDPOINT_GONE');
  });

  it('redelivers a dead delivery by hand as one manual attempt with the same webhook-id', async () => {
    receiver.on('/later', (r, res, n) => (n === 1 ? json(res, 500, {}) : json(res, 200, { id: JSON.parse(r.body).id, status: 'SUCCESS' })));
    const account = 'acc-redeliver';
    assert.ok((await h.endpoints.create(account, endpointConfig(receiver.url('/later')))).ok);
    const event = alarmEvent(account);
    await accept.execute(event);
    assert.equal((await finished(event.notificationId)).status, 'dead');
    const asked = await h.deliveryLog.redeliver(account, event.notificationId);
    assert.ok(asked.ok);
    const foreign = await h.deliveryLog.redeliver('another-account', event.notificationId);
    assert.equal(foreign.ok ? 'ok' : foreign.error.kind, 'not-found');
    const done = await finished(event.notificationId);
    assert.equal(done.status, 'succeeded');
    assert.deepEqual(
      done.attempts.map((a) => [a.attemptNumber, a.trigger]),
      [
        [1, 'scheduled'],
        [2, 'manual'],
      ],
    );
    assert.equal(receiver.at('/later')[1]?.headers['webhook-id'], event.notificationId);
  });

  it('caps manual redeliveries per delivery: the next one is refused as a limit (429), naming it, and sends nothing', async () => {
    receiver.on('/capped', (_r, res) => json(res, 500, {}));
    const account = 'acc-capped';
    assert.ok((await h.endpoints.create(account, endpointConfig(receiver.url('/capped')))).ok);
    const event = alarmEvent(account);
    await accept.execute(event);
    assert.equal((await finished(event.notificationId)).status, 'dead');
    for (let i = 1; i <= h.maxManualRedeliveries; i++) {
      assert.ok((await h.deliveryLog.redeliver(account, event.notificationId)).ok, `redelivery ${i}`);
      await until(async () => {
        const d = await h.store.get(event.notificationId);
        return d && d.status === 'dead' && d.attempts.length === i + 1 ? d : undefined;
      }, `manual attempt ${i} logged`);
    }
    const sent = receiver.at('/capped').length;
    const refused = await h.deliveryLog.redeliver(account, event.notificationId);
    assert.equal(refused.ok ? 'ok' : refused.error.kind, 'limit');
    assert.match(refused.ok ? '' : refused.error.message, new RegExp(`^Redelivery limit reached: .*${h.maxManualRedeliveries} manual redeliveries`));
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(receiver.at('/capped').length, sent, 'a refused redelivery sends nothing');
  });

  it('rejects out-of-bounds delivery policies with the field and unit named', async () => {
    const result = await h.endpoints.create(
      'acc-bounds',
      endpointConfig(receiver.url('/x'), { deliveryPolicy: { timeoutMs: 60, maxRetries: 3, retryDelaySeconds: 0 } }),
    );
    assert.equal(result.ok, false);
    assert.ok(!result.ok && result.error.kind === 'validation');
    assert.match(!result.ok ? result.error.message : '', /webhook\.deliveryPolicy\.retryDelay must be an integer between 1 and 3600 seconds/);
  });
});
