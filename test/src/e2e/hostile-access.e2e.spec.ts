import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Answer, CallOptions } from './support/api-client.js';
import { createCustomer, type Customer } from './support/customer.js';
import { e2eStack, type E2eStack } from './support/e2e-stack.js';
import { assertError } from './support/errors.js';
import { skipWhenPending } from './support/pending.js';
import { ALARM_KINDS, fullWebhook, registrationBody, type AlarmKind } from './support/registrations.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const FOREIGN_ACCOUNT = 'No webhook is stored for this account';

/**
 * Issue item 4, access: customer A tries every object kind of customer B. Object-level refusals are
 * 404 (reliability rules, OWASP API1) and identical to the answer for an id that does not exist, so
 * they reveal nothing; where the contract or the OpenAPI document gives another status (a role rule,
 * or a parameter only ADMIN may send) that status is expected, again identical for any id.
 */
describe('e2e hostile input: cross-account access', function () {
  this.timeout(90_000);
  let stack: E2eStack;
  let attacker: Customer;
  let victim: Customer;
  let victimKey: { keyId: string; apiKey: string };
  let attempts = 0;

  /** Messages name the id asked for; the comparison is about everything else. */
  const withoutIds = (message: string, ...ids: string[]) => ids.reduce((m, id) => m.split(id).join('<id>'), message);

  /** A's call on B's object and on an unknown one: same status, same message. */
  async function refusedAlike(status: number, method: string, foreign: string, unknown: string, options: CallOptions = {}): Promise<Answer> {
    attempts += 2;
    const a = await stack.api.call(method, foreign, { token: attacker.token, ...options });
    const b = await stack.api.call(method, unknown, { token: attacker.token, ...options });
    const what = `${method} ${foreign}`;
    assertError(a, status);
    assertError(b, status);
    const ids = [...foreign.split(/[/?=&]/), ...unknown.split(/[/?=&]/)].filter((part) => part.length >= 8);
    assert.equal(withoutIds(a.body.message, ...ids), withoutIds(b.body.message, ...ids), `${what}: B's object and an unknown one must be refused alike`);
    return a;
  }

  /** A's call with B's id in the body, and with an unknown id there. */
  async function refusedAlikeBody(
    status: number,
    method: string,
    path: string,
    foreign: Record<string, unknown>,
    unknown: Record<string, unknown>,
  ): Promise<void> {
    attempts += 2;
    const a = await stack.api.call(method, path, { token: attacker.token, body: foreign });
    const b = await stack.api.call(method, path, { token: attacker.token, body: unknown });
    assertError(a, status, path);
    assertError(b, status, path);
    const ids = [...Object.values(foreign), ...Object.values(unknown)].filter((v): v is string => typeof v === 'string' && v.length >= 8);
    assert.equal(
      withoutIds(a.body.message, ...ids),
      withoutIds(b.body.message, ...ids),
      `${method} ${path}: B's object and an unknown one must be refused alike`,
    );
  }

  before(async function () {
    this.timeout(300_000);
    stack = await e2eStack();
    const admin = await stack.adminToken();
    attacker = await createCustomer(stack.api, admin, { company: 'Attacker Ltd' });
    victim = await createCustomer(stack.api, admin, { company: 'Victim Ltd' });
    const key = await stack.api.expect(201, 'POST', '/v1/api-keys/create', { token: victim.token, body: { name: 'victim key' } });
    victimKey = { keyId: String(key.body.keyId), apiKey: String(key.body.apiKey) };
  });

  after(() => {
    if (stack) stack.figures['cross-account attempts refused as the contract says'] = attempts;
  });

  it('users: another user is out of reach by role (POWER_USER and above read users; ADMIN changes them)', async () => {
    const unknownUser = randomUUID();
    const read = await refusedAlike(403, 'GET', `/v1/users/${victim.userId}`, `/v1/users/${unknownUser}`);
    assert.match(read.body.message, /POWER_USER/);
    await refusedAlikeBody(
      403,
      'PATCH',
      '/v1/users/update-role-status',
      { userId: victim.userId, status: 'BLOCKED' },
      { userId: unknownUser, status: 'BLOCKED' },
    );
    attempts += 1;
    assertError(await stack.api.call('POST', '/v1/users/page', { token: attacker.token, body: { pageNumber: 0, pageSize: 10 } }), 403, '/v1/users/page');
    const me = await stack.api.expect(200, 'GET', '/v1/users/me', { token: victim.token });
    assert.equal(me.body.status, 'ACTIVE', 'the victim is untouched');
  });

  it('accounts: reading, changing, creating for and verifying another account all answer 404', async () => {
    const unknownUser = randomUUID();
    const unknownAccount = randomUUID();
    await refusedAlike(404, 'GET', `/v1/accounts/${victim.userId}`, `/v1/accounts/${unknownUser}`);
    await refusedAlikeBody(
      404,
      'PATCH',
      '/v1/accounts/update',
      { accountId: victim.accountId, company: 'Mine now' },
      { accountId: unknownAccount, company: 'Mine now' },
    );
    await refusedAlikeBody(
      404,
      'POST',
      '/v1/accounts/create',
      { userId: victim.userId, type: 'INDIVIDUAL', subscriptionPlan: 'NONE' },
      { userId: unknownUser, type: 'INDIVIDUAL', subscriptionPlan: 'NONE' },
    );
    const link = 'http://localhost:3000/activate';
    await refusedAlikeBody(
      404,
      'POST',
      '/v1/accounts/phone-number-activation-request',
      { userId: victim.userId, accountId: victim.accountId, phoneNumberActivationPageLink: link },
      { userId: unknownUser, accountId: unknownAccount, phoneNumberActivationPageLink: link },
    );
    await refusedAlikeBody(
      404,
      'POST',
      '/v1/accounts/phone-number-activation',
      { accountId: victim.accountId, code: '123456' },
      { accountId: unknownAccount, code: '123456' },
    );
    const me = await stack.api.expect(200, 'GET', '/v1/users/me', { token: victim.token });
    assert.equal(me.body.account.company, 'Victim Ltd', "the victim's account is unchanged");
  });

  it("subscriptions: another account's subscription is 404 to read and ADMIN-only to change", async () => {
    await refusedAlike(404, 'GET', `/v1/accounts/subscription/${victim.accountId}`, `/v1/accounts/subscription/${randomUUID()}`);
    await refusedAlikeBody(
      403,
      'POST',
      '/v1/accounts/update-subscription',
      { accountId: victim.accountId, subscriptionPlan: 'PREMIUM_YEARLY' },
      { accountId: randomUUID(), subscriptionPlan: 'PREMIUM_YEARLY' },
    );
    const subscription = await stack.api.expect(200, 'GET', `/v1/accounts/subscription/${victim.accountId}`, { token: victim.token });
    assert.equal(subscription.body.subscriptionPlan, 'CUSTOM');
  });

  it("api keys: listing, creating for and revoking another user's keys answer 404, and the key keeps working", async () => {
    const unknownUser = randomUUID();
    await refusedAlike(404, 'GET', `/v1/api-keys?userId=${victim.userId}`, `/v1/api-keys?userId=${unknownUser}`);
    await refusedAlikeBody(404, 'POST', '/v1/api-keys/create', { userId: victim.userId, name: 'stolen' }, { userId: unknownUser, name: 'stolen' });
    await refusedAlike(404, 'DELETE', `/v1/api-keys/revoke/${victimKey.keyId}`, '/v1/api-keys/revoke/0123456789abcdef');
    const list = await stack.api.expect(200, 'GET', '/v1/api-keys', { apiKey: victimKey.apiKey });
    assert.equal(list.body.apiKeys.find((k: { keyId: string }) => k.keyId === victimKey.keyId)?.revoked, false);
  });

  describe('objects behind alarm registrations: registrations, the stored webhook, deliveries', () => {
    let receiver: WebhookReceiver;
    const victimRegistrations = new Map<AlarmKind, string>();

    before(async function () {
      receiver = await WebhookReceiver.start();
      // The victim's first registration stores its webhook; the attacker gets one of its own too.
      const first = await stack.api.call('POST', '/v1/alarms/geometries/register', {
        token: victim.token,
        body: registrationBody('geometries', 'victim-recipient', fullWebhook(receiver.url)),
      });
      skipWhenPending(this, first, 'registerGeometryAlarm');
      assert.equal(first.status, 200, first.text);
      victimRegistrations.set('geometries', String(first.body.registrationId));
      for (const kind of ALARM_KINDS.filter((k) => k !== 'geometries')) {
        const answer = await stack.api.call('POST', `/v1/alarms/${kind}/register`, {
          token: victim.token,
          body: registrationBody(kind, 'victim-recipient', { accountId: victim.accountId }),
        });
        if (answer.status === 200) victimRegistrations.set(kind, String(answer.body.registrationId));
        else if (answer.status !== 501) assert.fail(`registering a ${kind} alarm answered ${answer.status}: ${answer.text}`);
      }
      await stack.api.expect(200, 'POST', '/v1/alarms/geometries/register', {
        token: attacker.token,
        body: registrationBody('geometries', 'attacker-recipient', fullWebhook(receiver.url)),
      });
    });

    after(async () => {
      await receiver?.stop();
    });

    it("registrations of every kind: another account's answer 404 to read, update and delete, and survive", async () => {
      for (const [kind, registrationId] of victimRegistrations) {
        const unknown = randomUUID();
        await refusedAlike(404, 'GET', `/v1/alarms/${kind}/get-by-id/${registrationId}`, `/v1/alarms/${kind}/get-by-id/${unknown}`);
        const update = (id: string) => ({ ...registrationBody(kind, 'attacker-recipient', { accountId: attacker.accountId }), registrationId: id });
        await refusedAlikeBody(404, 'PUT', `/v1/alarms/${kind}/update`, update(registrationId), update(unknown));
        await refusedAlike(404, 'DELETE', `/v1/alarms/${kind}/unregister/${registrationId}`, `/v1/alarms/${kind}/unregister/${unknown}`);
        attempts += 2;
        const byRecipient = await stack.api.expect(200, 'GET', `/v1/alarms/${kind}/get-by-recipient-id/victim-recipient`, { token: attacker.token });
        assert.equal(byRecipient.body.totalRecords, 0, `${kind}: another account's recipients are not listed`);
        const page = await stack.api.call('POST', `/v1/alarms/${kind}/page`, { token: attacker.token, body: { accountId: victim.accountId } });
        assertError(page, 403);
        const still = await stack.api.expect(200, 'GET', `/v1/alarms/${kind}/get-by-id/${registrationId}`, { token: victim.token });
        assert.equal(still.body.recipientId, 'victim-recipient', `${kind}: the victim's registration is unchanged`);
      }
    });

    it("registrations: reusing another account's stored webhook by its accountId is refused, alike for any account", async () => {
      // webhook.accountId must be the caller's own (contract section 3): the gateway answers a 400
      // that names the rule rather than a 404, and the same for an account that does not exist.
      attempts += 2;
      const register = (accountId: string) =>
        stack.api.call('POST', '/v1/alarms/geometries/register', {
          token: attacker.token,
          body: registrationBody('geometries', 'attacker-recipient', { accountId }),
        });
      const unknown = randomUUID();
      const foreign = await register(victim.accountId);
      const missing = await register(unknown);
      assert.ok([400, 404].includes(foreign.status), `answered ${foreign.status}: ${foreign.text}`);
      assertError(foreign, foreign.status, '/v1/alarms/geometries/register');
      assertError(missing, foreign.status, '/v1/alarms/geometries/register');
      assert.equal(withoutIds(foreign.body.message, victim.accountId, unknown), withoutIds(missing.body.message, victim.accountId, unknown));
      const mine = await stack.api.expect(200, 'GET', '/v1/alarms/geometries/get-by-recipient-id/attacker-recipient', { token: attacker.token });
      assert.equal(mine.body.totalRecords, 1, "no registration was made on the victim's webhook");
    });

    it('the stored webhook: naming another account is for ADMIN only, alike for any id, and changes nothing', async () => {
      const before = await stack.api.expect(200, 'GET', '/v1/alarms/webhooks/signing-secret', { token: victim.token });
      const unknown = randomUUID();
      const q = (id: string) => `?accountId=${id}`;
      for (const [method, path, body] of [
        ['GET', '/v1/alarms/webhooks', undefined],
        ['GET', '/v1/alarms/webhooks/signing-secret', undefined],
        ['POST', '/v1/alarms/webhooks/rotate-secret', undefined],
        ['POST', '/v1/alarms/webhooks/enable', undefined],
        ['POST', '/v1/alarms/webhooks/test', undefined],
        ['PUT', '/v1/alarms/webhooks/update', fullWebhook('http://127.0.0.1:9/stolen')],
      ] as const) {
        const refusal = await refusedAlike(404, method, `${path}${q(victim.accountId)}`, `${path}${q(unknown)}`, body ? { body } : {});
        assert.equal(refusal.body.message, FOREIGN_ACCOUNT);
      }
      const after = await stack.api.expect(200, 'GET', '/v1/alarms/webhooks/signing-secret', { token: victim.token });
      assert.equal(after.body.signingSecret, before.body.signingSecret, 'the secret was not rotated');
      const webhook = await stack.api.expect(200, 'GET', '/v1/alarms/webhooks', { token: victim.token });
      assert.equal(webhook.body.url, receiver.url, 'the url was not changed');
    });

    it("deliveries: another account's delivery answers 404 to read and to redeliver, and is not listed", async function () {
      const test = await stack.api.call('POST', '/v1/alarms/webhooks/test', { token: victim.token });
      skipWhenPending(this, test, 'sendWebhookTest');
      assert.equal(test.status, 202, test.text);
      const id = String(test.body.notificationId);
      await refusedAlike(404, 'GET', `/v1/deliveries/${id}`, '/v1/deliveries/ntf_00000000000000000000000000');
      await refusedAlike(404, 'POST', `/v1/deliveries/${id}/redeliver`, '/v1/deliveries/ntf_00000000000000000000000000/redeliver');
      attempts += 1;
      const page = await stack.api.expect(200, 'POST', '/v1/deliveries/page', { token: attacker.token, body: {} });
      assert.ok(!page.text.includes(id), "the victim's delivery is not in the attacker's log");
    });
  });
});
