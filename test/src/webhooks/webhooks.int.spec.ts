import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { Receiver, errorMessage, eventually, startWebhookStack, type ReceivedCallback, type TestUser, type WebhookStack } from './support.js';

/** An independent Standard Webhooks v1 check: HMAC-SHA256 over id.timestamp.body, keyed with the decoded secret. */
function signatureOf(secret: string, callback: ReceivedCallback): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signed = `${String(callback.headers['webhook-id'])}.${String(callback.headers['webhook-timestamp'])}.${callback.body}`;
  return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
}

const signaturesOf = (callback: ReceivedCallback): string[] => String(callback.headers['webhook-signature'] ?? '').split(' ');

describe('stored webhook through the gateway (/v1/alarms/webhooks)', function () {
  this.timeout(60_000);
  let stack: WebhookStack;
  const receiver = new Receiver();
  let owner: TestUser;
  let other: TestUser;

  before(async () => {
    stack = await startWebhookStack();
    await receiver.start();
    // Plan NONE: the webhook operations are not metered, a caller needs an account, not a subscription.
    owner = await stack.user('API_USER', 'NONE');
    other = await stack.user('STANDARD_USER', 'NONE');
  });
  after(async () => {
    await receiver.stop();
    await stack?.stop();
  });

  /** The test delivery's callback at the receiver, once the delivery log says it finished. */
  async function testCallback(token: string): Promise<{ callback: ReceivedCallback; delivery: Record<string, any> }> {
    const sent = await stack.call('POST', '/v1/alarms/webhooks/test', { token });
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    const id = String(sent.body['notificationId']);
    const delivery = await eventually(
      async () => {
        const read = await stack.call('GET', `/v1/deliveries/${id}`, { token });
        return ['SUCCEEDED', 'DEAD'].includes(read.body['status']) ? read.body : undefined;
      },
      15_000,
      `test delivery ${id}`,
    );
    const callback = receiver.withId(id)[0];
    assert.ok(callback, 'the receiver got the test delivery');
    return { callback, delivery };
  }

  it('answers 404 before the account has a webhook and 403 to a caller without an account', async () => {
    assert.match(errorMessage(await stack.call('GET', '/v1/alarms/webhooks', { token: owner.token }), 404, '/v1/alarms/webhooks'), /webhook/i);
    const lone = await stack.user('API_USER');
    const message = errorMessage(await stack.call('GET', '/v1/alarms/webhooks', { token: lone.token }), 403, '/v1/alarms/webhooks');
    assert.match(message, /needs an account.*\/v1\/accounts\/create/);
    errorMessage(await stack.call('GET', '/v1/alarms/webhooks'), 401, '/v1/alarms/webhooks');
  });

  it('reads the stored webhook without authentication.type and with the password masked', async () => {
    await stack.createWebhook(owner.accountId!, {
      url: receiver.url('/owner'),
      authentication: { type: 'BASIC', username: 'ops', password: 'basic-secret-1' },
      requestHeaders: { 'X-Tenant': 'acme' },
      deliveryPolicy: { timeout: 4000, maxRetries: 2, retryDelay: 5 },
    });
    const read = await stack.call('GET', '/v1/alarms/webhooks', { token: owner.token });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.equal(read.headers.get('cache-control'), 'no-store');
    const { createdAt, updatedAt, ...rest } = read.body;
    assert.ok(typeof createdAt === 'string' && typeof updatedAt === 'string');
    assert.deepEqual(rest, {
      accountId: owner.accountId,
      url: receiver.url('/owner'),
      httpMethod: 'POST',
      contentType: 'application/json',
      authentication: { username: 'ops', password: '******' },
      requestHeaders: { 'X-Tenant': 'acme' },
      deliveryPolicy: { timeout: 4000, maxRetries: 2, retryDelay: 5 },
      status: 'ENABLED',
      disabledReason: null,
      disabledAt: null,
      failingSince: null,
    });
    assert.ok(!JSON.stringify(read.body).includes('basic-secret-1'));
  });

  it('keeps accounts apart: another caller sees 404, also naming the account; only ADMIN may name one', async () => {
    const noWebhook = errorMessage(await stack.call('GET', '/v1/alarms/webhooks', { token: other.token }), 404, '/v1/alarms/webhooks');
    const path = `/v1/alarms/webhooks?accountId=${owner.accountId}`;
    // The same answer as for an account without a webhook: naming another account reveals nothing.
    assert.equal(errorMessage(await stack.call('GET', path, { token: other.token }), 404, '/v1/alarms/webhooks'), noWebhook);
    assert.equal((await stack.call('GET', path, { token: owner.token })).status, 200);
    const asAdmin = await stack.call('GET', path, { token: await stack.adminToken() });
    assert.equal(asAdmin.status, 200);
    assert.equal(asAdmin.body['accountId'], owner.accountId);
    const guest = await stack.user('GUEST', 'NONE');
    errorMessage(await stack.call('GET', '/v1/alarms/webhooks', { token: guest.token }), 403, '/v1/alarms/webhooks');
  });

  it('updates it; what a read answers can be sent back and keeps the stored credentials', async () => {
    const read = await stack.call('GET', '/v1/alarms/webhooks', { token: owner.token });
    const { status: _s, disabledReason: _r, disabledAt: _d, failingSince: _f, createdAt: _c, updatedAt: _u, ...webhook } = read.body;
    const changed = {
      ...webhook,
      url: receiver.url('/owner-v2'),
      httpMethod: 'PUT',
      requestHeaders: { 'X-Tenant': 'acme-2' },
      deliveryPolicy: { timeout: 3000, maxRetries: 1, retryDelay: 2 },
    };
    const updated = await stack.call('PUT', '/v1/alarms/webhooks/update', { token: owner.token, body: changed });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body['url'], receiver.url('/owner-v2'));
    assert.equal(updated.body['httpMethod'], 'PUT');
    assert.deepEqual(updated.body['authentication'], { username: 'ops', password: '******' });
    assert.deepEqual(updated.body['deliveryPolicy'], { timeout: 3000, maxRetries: 1, retryDelay: 2 });
    // The callback proves the stored type and password survived the masked round trip.
    const { callback } = await testCallback(owner.token);
    assert.equal(callback.method, 'PUT');
    assert.equal(callback.url, '/owner-v2');
    assert.equal(callback.headers['authorization'], `Basic ${Buffer.from('ops:basic-secret-1').toString('base64')}`);
    assert.equal(callback.headers['x-tenant'], 'acme-2');
  });

  it('switches auth type by its public names (API_KEY with asQueryParameter) and masks the new key', async () => {
    const body = { url: receiver.url('/owner-v3'), authentication: { type: 'API_KEY', asQueryParameter: true, password: 'query-key-1' } };
    const updated = await stack.call('PUT', '/v1/alarms/webhooks/update', { token: owner.token, body });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual(updated.body['authentication'], { password: '******', asHeader: false, asQueryParameter: true });
    assert.deepEqual(updated.body['deliveryPolicy'], { timeout: 5000, maxRetries: 3, retryDelay: 10 }, 'an absent policy takes the defaults');
    const { callback, delivery } = await testCallback(owner.token);
    assert.equal(callback.url, '/owner-v3?apiKey=query-key-1');
    assert.equal(callback.headers['authorization'], undefined);
    assert.ok(!JSON.stringify(delivery).includes('query-key-1'), 'the attempt log masks the key');
  });

  it('refuses bad updates with 400s naming the field (and unit)', async () => {
    const path = '/v1/alarms/webhooks/update';
    const put = (body: unknown) => stack.call('PUT', path, { token: owner.token, body });
    const base = { url: receiver.url('/owner-v3') };
    assert.match(errorMessage(await put({ ...base, deliveryPolicy: { timeout: 100 } }), 400, path), /webhook\.deliveryPolicy\.timeout .*milliseconds/);
    assert.match(errorMessage(await put({ ...base, deliveryPolicy: { retryDelay: 0 } }), 400, path), /webhook\.deliveryPolicy\.retryDelay .*seconds/);
    assert.match(errorMessage(await put({ ...base, deliveryPolicy: { maxRetries: 11 } }), 400, path), /webhook\.deliveryPolicy\.maxRetries/);
    assert.match(
      errorMessage(await put({ ...base, authentication: { type: 'OAUTH2', password: 'x' } }), 400, path),
      /^webhook\.authentication\.type must be one of NONE, BASIC, API_KEY/,
    );
    assert.match(errorMessage(await put({ ...base, accountId: other.accountId }), 400, path), /webhook\.accountId/);
    assert.match(errorMessage(await put({ url: 'http://10.0.0.5/hook' }), 400, path), /webhook\.url/);
    assert.match(errorMessage(await put({ ...base, requestHeaders: { 'Webhook-Id': 'x' } }), 400, path), /requestHeaders/);
    errorMessage(await put({ deliveryPolicy: {} }), 400, path);
    // Nothing of that was stored.
    assert.equal((await stack.call('GET', '/v1/alarms/webhooks', { token: owner.token })).body['deliveryPolicy']['timeout'], 5000);
  });

  it('rotates the signing secret: callbacks carry a verifiable signature for the new and the previous secret', async () => {
    const before = await stack.call('GET', '/v1/alarms/webhooks/signing-secret', { token: owner.token });
    assert.equal(before.status, 200);
    assert.match(before.body['signingSecret'], /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.equal(before.body['previousSigningSecret'], null);
    const rotated = await stack.call('POST', '/v1/alarms/webhooks/rotate-secret?previousSecretValidSeconds=3600', { token: owner.token });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    assert.equal(rotated.headers.get('cache-control'), 'no-store');
    assert.notEqual(rotated.body['signingSecret'], before.body['signingSecret']);
    assert.equal(rotated.body['previousSigningSecret'], before.body['signingSecret']);
    const expires = Date.parse(rotated.body['previousSecretExpiresAt']);
    assert.ok(Math.abs(expires - (Date.now() + 3_600_000)) < 60_000, rotated.body['previousSecretExpiresAt']);
    assert.deepEqual((await stack.call('GET', '/v1/alarms/webhooks/signing-secret', { token: owner.token })).body, rotated.body);

    const { callback } = await testCallback(owner.token);
    const signatures = signaturesOf(callback);
    assert.ok(signatures.includes(signatureOf(rotated.body['signingSecret'], callback)), 'signed with the new secret');
    assert.ok(signatures.includes(signatureOf(before.body['signingSecret'], callback)), 'and with the previous one');
    const tooLong = '/v1/alarms/webhooks/rotate-secret';
    errorMessage(await stack.call('POST', `${tooLong}?previousSecretValidSeconds=9999999`, { token: owner.token }), 400, tooLong);
    errorMessage(await stack.call('GET', '/v1/alarms/webhooks/signing-secret', { token: other.token }), 404, '/v1/alarms/webhooks/signing-secret');
  });

  it('shows an endpoint disabled by 410 Gone, and enables it again', async () => {
    receiver.answer = (_callback, res) => void res.writeHead(410).end('gone');
    try {
      const { delivery } = await testCallback(owner.token);
      assert.equal(delivery['status'], 'DEAD');
      assert.equal(delivery['lastResponseStatusCode'], 410);
    } finally {
      receiver.answer = (_callback, res) => void res.writeHead(200).end();
    }
    const disabled = await stack.call('GET', '/v1/alarms/webhooks', { token: owner.token });
    assert.equal(disabled.body['status'], 'DISABLED');
    assert.match(String(disabled.body['disabledReason']), /410/);
    assert.ok(typeof disabled.body['disabledAt'] === 'string');
    const enabled = await stack.call('POST', '/v1/alarms/webhooks/enable', { token: owner.token });
    assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
    assert.equal(enabled.body['status'], 'ENABLED');
    assert.equal(enabled.body['disabledReason'], null);
    assert.equal((await testCallback(owner.token)).delivery['status'], 'SUCCEEDED');
  });
});
