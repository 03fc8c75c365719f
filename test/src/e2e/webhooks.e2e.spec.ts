import assert from 'node:assert/strict';
import { createCustomer, type Customer } from './support/customer.js';
import { e2eStack, type E2eStack } from './support/e2e-stack.js';
import { assertError } from './support/errors.js';
import { eventually } from './support/geo-math.js';
import { skipWhenPending } from './support/pending.js';
import { fullWebhook, registrationBody } from './support/registrations.js';
import { signatureMatches } from './support/standard-webhooks.js';
import { WebhookReceiver, type ReceivedCall } from './support/webhook-receiver.js';

/**
 * The webhook lifecycle of interface.md section 3 and the delivery rules of the reliability rules:
 * one stored webhook per account, reused by account id, changed only by the update operation;
 * signing-secret rotation, test deliveries, redelivery, and a 410 that disables the endpoint.
 */
describe('e2e: the stored webhook and its deliveries', function () {
  this.timeout(90_000);
  let stack: E2eStack;
  let customer: Customer;
  let receiver: WebhookReceiver;
  let other: WebhookReceiver;
  let stored = false;

  before(async function () {
    this.timeout(300_000);
    stack = await e2eStack();
    customer = await createCustomer(stack.api, await stack.adminToken(), { company: 'Webhook Spec Ltd' });
    receiver = await WebhookReceiver.start('/first');
    other = await WebhookReceiver.start('/second');
  });

  after(async () => {
    await receiver?.stop();
    await other?.stop();
  });

  const register = (webhook: Record<string, unknown>, recipientId = 'webhook-spec') =>
    stack.api.call('POST', '/v1/alarms/geometries/register', { token: customer.token, body: registrationBody('geometries', recipientId, webhook) });
  const nextCall = (r: WebhookReceiver, after: number, what: string) =>
    r.waitFor((calls) => calls.slice(after).find((c: ReceivedCall) => c.answeredStatus < 300) ?? calls[after], what, 30_000);

  it('refuses a registration by account id before any webhook is stored (rule 3), then stores the first complete one (rule 1)', async function () {
    const early = await register({ accountId: customer.accountId });
    skipWhenPending(this, early, 'registerGeometryAlarm');
    assert.ok(early.status >= 400 && early.status < 500, `answered ${early.status}: ${early.text}`);
    assert.match(assertError(early, early.status).message, /webhook/i);
    await stack.api.expect(200, 'POST', '/v1/alarms/geometries/register', {
      token: customer.token,
      body: registrationBody('geometries', 'webhook-spec', fullWebhook(receiver.url)),
    });
    stored = true;
    const webhook = await stack.api.expect(200, 'GET', '/v1/alarms/webhooks', { token: customer.token });
    assert.equal(webhook.body.url, receiver.url);
    assert.equal(webhook.body.status, 'ENABLED');
    assert.equal(webhook.body.authentication.password, '******');
    assert.deepEqual(webhook.body.deliveryPolicy, { timeout: 3000, maxRetries: 3, retryDelay: 1 });
  });

  it('keeps the stored webhook when a later registration carries another, and changes it with the update operation (rule 4)', async function () {
    if (!stored) this.skip();
    const again = await register(fullWebhook(other.url), 'webhook-spec-2');
    assert.ok(again.status < 500, again.text);
    const still = await stack.api.expect(200, 'GET', '/v1/alarms/webhooks', { token: customer.token });
    assert.equal(still.body.url, receiver.url, 'registering again does not change the stored webhook');
    // Sending back what GET answers, with another url: "******" keeps the stored password.
    const { url: _old, status: _s, disabledReason: _d, disabledAt: _a, failingSince: _f, createdAt: _c, updatedAt: _u, accountId: _i, ...rest } = still.body;
    const changed = await stack.api.expect(200, 'PUT', '/v1/alarms/webhooks/update', { token: customer.token, body: { ...rest, url: other.url } });
    assert.equal(changed.body.url, other.url);
    assert.equal(changed.body.authentication.password, '******');
  });

  it('refuses webhook settings outside the rules with a 400 naming the field', async function () {
    if (!stored) this.skip();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...fullWebhook(other.url), deliveryPolicy: { timeout: 100 } }, /timeout.*millisecond/i],
      [{ ...fullWebhook(other.url), deliveryPolicy: { maxRetries: 50 } }, /maxRetries/],
      [{ ...fullWebhook(other.url), requestHeaders: { 'webhook-id': 'forged' } }, /webhook-id|header/i],
      [{ ...fullWebhook('http://10.1.2.3/hook') }, /url|address|private/i],
      [{ ...fullWebhook('http://169.254.169.254/latest/meta-data') }, /url|address|link-local|private/i],
    ];
    for (const [body, field] of cases) {
      const answer = await stack.api.call('PUT', '/v1/alarms/webhooks/update', { token: customer.token, body });
      assert.match(assertError(answer, 400, '/v1/alarms/webhooks/update').message, field, JSON.stringify(body));
    }
  });

  it('signs with both secrets during a rotation; a test delivery and its redelivery keep their webhook-id', async function () {
    if (!stored) this.skip();
    const rotated = await stack.api.expect(200, 'POST', '/v1/alarms/webhooks/rotate-secret?previousSecretValidSeconds=600', { token: customer.token });
    const { signingSecret, previousSigningSecret } = rotated.body as { signingSecret: string; previousSigningSecret: string };
    assert.ok(previousSigningSecret && previousSigningSecret !== signingSecret);
    const before = other.calls.length;
    const test = await stack.api.expect(202, 'POST', '/v1/alarms/webhooks/test', { token: customer.token });
    const id = String(test.body.notificationId);
    const first = await nextCall(other, before, 'the test delivery');
    assert.equal(first.headers['webhook-id'], id);
    assert.equal(JSON.parse(first.body).type, 'webhook.test');
    assert.equal(first.headers['webhook-event-type'], 'webhook.test');
    const header = String(first.headers['webhook-signature']);
    const stamp = String(first.headers['webhook-timestamp']);
    assert.equal(header.split(' ').length, 2, 'one signature per active secret');
    assert.ok(signatureMatches(signingSecret, id, stamp, first.body, header), 'signed with the new secret');
    assert.ok(signatureMatches(previousSigningSecret, id, stamp, first.body, header), 'and with the previous one');
    // Redeliver once the first attempt is on record (the in-flight case has a test of its own below).
    await eventually(
      async () => {
        const d = await stack.api.expect(200, 'GET', `/v1/deliveries/${id}`, { token: customer.token });
        return d.body.status === 'SUCCEEDED' ? d : undefined;
      },
      'the test delivery to be recorded as succeeded',
      20_000,
    );
    const mark = other.calls.length;
    await stack.api.expect(202, 'POST', `/v1/deliveries/${id}/redeliver`, { token: customer.token });
    const again = await nextCall(other, mark, 'the redelivery');
    assert.equal(again.headers['webhook-id'], id, 'a redelivery carries the same webhook-id');
    assert.equal(again.body, first.body);
    const detail = await eventually(
      async () => {
        const d = await stack.api.expect(200, 'GET', `/v1/deliveries/${id}`, { token: customer.token });
        return d.body.attempts.length >= 2 ? d : undefined;
      },
      'both attempts in the log',
      20_000,
    );
    assert.deepEqual(
      detail.body.attempts.map((a: { trigger: string }) => a.trigger),
      ['MANUAL', 'MANUAL'],
    );
  });

  it('refuses a redelivery while the first attempt is still in flight with 409, and makes it once that attempt finished', async function () {
    if (!stored) this.skip();
    const mark = other.calls.length;
    let redelivery: Awaited<ReturnType<typeof stack.api.call>> | undefined;
    // The receiver answers the test delivery only after the redelivery was accepted.
    other.holdNext(async (call) => {
      redelivery = await stack.api.call('POST', `/v1/deliveries/${String(call.headers['webhook-id'])}/redeliver`, { token: customer.token });
    });
    await stack.api.expect(202, 'POST', '/v1/alarms/webhooks/test', { token: customer.token });
    const first = await nextCall(other, mark, 'the test delivery');
    const id = String(first.headers['webhook-id']);
    await eventually(async () => redelivery, 'the redelivery request', 20_000);
    assert.equal(redelivery?.status, 409, redelivery?.text);
    assert.match(redelivery?.text ?? '', /in flight/);
    await eventually(
      async () => {
        const d = await stack.api.expect(200, 'GET', `/v1/deliveries/${id}`, { token: customer.token });
        return d.body.status === 'SUCCEEDED' ? d : undefined;
      },
      'the first attempt to be recorded',
      20_000,
    );
    await stack.api.expect(202, 'POST', `/v1/deliveries/${id}/redeliver`, { token: customer.token });
    await other.waitFor(
      (calls) => calls.slice(mark + 1).find((c) => c.headers['webhook-id'] === id),
      `the redelivery of ${id}, asked for again once its first attempt had finished`,
      30_000,
    );
  });

  it('disables the endpoint when it answers 410 Gone, and enables it again on request', async function () {
    if (!stored) this.skip();
    other.failNext(1, 410);
    await stack.api.expect(202, 'POST', '/v1/alarms/webhooks/test', { token: customer.token });
    const disabled = await eventually(
      async () => {
        const w = await stack.api.expect(200, 'GET', '/v1/alarms/webhooks', { token: customer.token });
        return w.body.status === 'DISABLED' ? w : undefined;
      },
      'the endpoint to be disabled',
      30_000,
    );
    assert.match(String(disabled.body.disabledReason), /410/);
    const enabled = await stack.api.expect(200, 'POST', '/v1/alarms/webhooks/enable', { token: customer.token });
    assert.equal(enabled.body.status, 'ENABLED');
  });
});
