import assert from 'node:assert/strict';
import { ANKARA, CANKAYA, KECIOREN, KIZILAY, errorMessage, fullWebhook, startAlarmStack, type AlarmStack, type TestUser } from './support.js';

/**
 * The stored-webhook rules of contract section 3 on alarm registrations, through the gateway over the
 * real alarm-matcher and notifier (which stores the webhook, one per account).
 */
describe('alarm registrations: the stored webhook (contract section 3)', function () {
  this.timeout(120_000);
  let stack: AlarmStack;
  let user: TestUser;
  let other: TestUser;
  const hook = fullWebhook('http://127.0.0.1:9/first');

  before(async () => {
    stack = await startAlarmStack();
    [user, other] = await Promise.all([stack.user('API_USER'), stack.user('API_USER')]);
  });
  after(async () => {
    await stack?.stop();
  });

  let counter = 0;
  /** A geometry registration on Çankaya for a new recipient with `webhook`. */
  const register = (who: TestUser, webhook: unknown, kind = 'geometries') => {
    const recipientId = `rcp-${++counter}`;
    const body =
      kind === 'points'
        ? { recipientId, boundary: { point: KIZILAY, radius: 1000 }, webhook, filter: { lightning: {} } }
        : { recipientId, boundary: { cityId: ANKARA, districtId: CANKAYA }, webhook, filter: { lightning: {} } };
    return stack.call('POST', `/v1/alarms/${kind}/register`, { token: who.token, body });
  };
  const storedWebhook = async (who: TestUser) => stack.call('GET', '/v1/alarms/webhooks', { token: who.token });

  it('rule 3: webhook.accountId before the account stored a webhook fails and says to send the complete one', async () => {
    const message = errorMessage(await register(user, { accountId: user.accountId }), 400);
    assert.match(message, /No webhook is stored for account/);
    assert.match(message, /complete webhook/);
    errorMessage(await storedWebhook(user), 404);
  });

  it('rule 1: the first registration stores the complete webhook for the account', async () => {
    const answer = await register(user, hook);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body['webhook'], {
      accountId: user.accountId,
      url: 'http://127.0.0.1:9/first',
      httpMethod: 'POST',
      contentType: 'application/json',
      authentication: { username: 'ops', password: '******' },
      requestHeaders: { 'X-Tenant': 'acme' },
      deliveryPolicy: { timeout: 4000, maxRetries: 2, retryDelay: 5 },
    });
    const stored = await storedWebhook(user);
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
    assert.equal(stored.body['url'], 'http://127.0.0.1:9/first');
    assert.deepEqual(stored.body['authentication'], { username: 'ops', password: '******' });
    assert.ok(!JSON.stringify(stored.body).includes('hook-secret-1'));
  });

  it('rule 2: later registrations, of any kind, send only webhook.accountId and reuse the stored webhook', async () => {
    for (const kind of ['geometries', 'points']) {
      const answer = await register(user, { accountId: user.accountId }, kind);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body['webhook']['url'], 'http://127.0.0.1:9/first');
      // deepEqual: no authentication.type, the password masked.
      assert.deepEqual(answer.body['webhook']['authentication'], { username: 'ops', password: '******' });
      assert.deepEqual(answer.body['warnings'], []);
    }
  });

  it("rule 3: another account's id fails clearly, even when that account has a webhook", async () => {
    const first = await register(other, fullWebhook('http://127.0.0.1:9/other'));
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const message = errorMessage(await register(user, { accountId: other.accountId }), 400);
    assert.match(message, new RegExp(`webhook.accountId ${other.accountId} is not the account of this registration`));
    assert.match(message, /GET \/v1\/users\/me/);
  });

  it('rule 4: a complete webhook that differs from the stored one is refused, pointing to the update operation', async () => {
    const answer = await register(user, { ...hook, url: 'http://127.0.0.1:9/elsewhere', deliveryPolicy: { timeout: 6000 } });
    const message = errorMessage(answer, 409);
    assert.match(message, /PUT \/v1\/alarms\/webhooks\/update/);
    assert.match(message, /url/);
    assert.match(message, /deliveryPolicy\.timeout/);
    assert.equal((await storedWebhook(user)).body['url'], 'http://127.0.0.1:9/first', 'the stored webhook is unchanged');
  });

  it('accepts the same complete webhook again (the password cannot be compared: a warning says so)', async () => {
    const answer = await register(user, hook);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.ok(
      answer.body['warnings'].some((w: string) => /password is stored encrypted and was not compared/.test(w)),
      JSON.stringify(answer.body['warnings']),
    );
  });

  it('takes back a registration as it was read (no authentication.type, masked password) on update', async () => {
    const made = await register(user, { accountId: user.accountId });
    const read = await stack.call('GET', `/v1/alarms/geometries/get-by-id/${made.body['registrationId']}`, { token: user.token });
    const { createdAt, updatedAt, warnings, ...editable } = read.body;
    void [createdAt, updatedAt, warnings];
    const put = await stack.call('PUT', '/v1/alarms/geometries/update', {
      token: user.token,
      body: { ...editable, boundary: { cityId: ANKARA, districtId: KECIOREN } },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.deepEqual(put.body['boundary'], { cityId: ANKARA, districtId: KECIOREN });
    assert.deepEqual(put.body['warnings'], []);
  });

  it('refuses webhook configuration fields without url, and a webhook with neither url nor accountId', async () => {
    const partial = errorMessage(await register(user, { accountId: user.accountId, deliveryPolicy: { maxRetries: 5 } }), 400);
    assert.match(partial, /webhook\.url is required with webhook\.deliveryPolicy/);
    assert.match(partial, /PUT \/v1\/alarms\/webhooks\/update/);
    assert.match(errorMessage(await register(user, { httpMethod: 'POST' }), 400), /webhook/);
    assert.match(errorMessage(await register(user, { ...hook, authentication: { type: 'KERBEROS', password: 'x' } }), 400), /webhook\.authentication\.type/);
  });

  it('shows the updated webhook on every registration once PUT /v1/alarms/webhooks/update changed it', async () => {
    const made = await register(user, { accountId: user.accountId });
    const changed = await stack.call('PUT', '/v1/alarms/webhooks/update', { token: user.token, body: { ...hook, url: 'http://127.0.0.1:9/second' } });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    const read = await stack.call('GET', `/v1/alarms/geometries/get-by-id/${made.body['registrationId']}`, { token: user.token });
    assert.equal(read.body['webhook']['url'], 'http://127.0.0.1:9/second');
    // The old complete webhook now differs from the stored one.
    errorMessage(await register(user, hook), 409);
    assert.equal((await register(user, { ...hook, url: 'http://127.0.0.1:9/second' })).status, 200);
  });
});
