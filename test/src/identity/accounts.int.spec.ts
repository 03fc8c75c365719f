import assert from 'node:assert/strict';
import { errorBody, LINK_ORIGIN, NIL_UUID, startIdentityStack, type IdentityStack } from './support.js';

describe('accounts and subscriptions through the gateway (interface.md 4.13 - 4.15)', function () {
  this.timeout(60_000);
  let stack: IdentityStack;
  let admin: string;

  before(async () => {
    stack = await startIdentityStack();
    admin = await stack.adminToken();
  });
  after(async () => {
    await stack?.stop();
  });

  describe('POST /v1/accounts/create, PATCH /v1/accounts/update, GET /v1/accounts/{userId}', () => {
    it('lets a user create their own account on a self-service plan, once', async () => {
      const u = await stack.user('STANDARD_USER');
      const created = await stack.call('POST', '/v1/accounts/create', {
        token: u.token,
        body: { userId: u.userId, type: 'ORGANIZATION', subscriptionPlan: 'TRIAL', company: 'Acme', mobilePhoneNumber: '+90 532 123 45 67' },
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      assert.equal(created.body['userId'], u.userId);
      assert.equal(created.body['subscriptionPlan'], 'TRIAL');
      assert.equal(created.body['mobilePhoneNumber'], '+905321234567');
      assert.equal(created.body['mobilePhoneNumberVerified'], false);
      assert.match(String(created.body['createdAt']), /^\d{4}-\d{2}-\d{2}T/);
      errorBody(
        await stack.call('POST', '/v1/accounts/create', { token: u.token, body: { userId: u.userId, type: 'INDIVIDUAL', subscriptionPlan: 'NONE' } }),
        409,
        '/v1/accounts/create',
      );
      const fetched = await stack.call('GET', `/v1/accounts/${u.userId}`, { token: u.token });
      assert.deepEqual(fetched.body, created.body);
    });

    it('refuses paid plans to users (ADMIN grants them), foreign users (404) and bad fields (400 naming them)', async () => {
      const u = await stack.user('STANDARD_USER');
      const other = await stack.user('STANDARD_USER');
      errorBody(
        await stack.call('POST', '/v1/accounts/create', { token: u.token, body: { userId: u.userId, type: 'INDIVIDUAL', subscriptionPlan: 'PREMIUM_YEARLY' } }),
        403,
        '/v1/accounts/create',
      );
      errorBody(
        await stack.call('POST', '/v1/accounts/create', { token: u.token, body: { userId: other.userId, type: 'INDIVIDUAL', subscriptionPlan: 'NONE' } }),
        404,
        '/v1/accounts/create',
      );
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ userId: u.userId, type: 'COMPANY', subscriptionPlan: 'NONE' }, /type/],
        [{ userId: u.userId, type: 'INDIVIDUAL' }, /subscriptionPlan is required/],
        [{ userId: 'me', type: 'INDIVIDUAL', subscriptionPlan: 'NONE' }, /userId/],
        [{ userId: u.userId, type: 'INDIVIDUAL', subscriptionPlan: 'NONE', mobilePhoneNumber: '05321234567' }, /mobilePhoneNumber/],
        [{ userId: u.userId, type: 'INDIVIDUAL', subscriptionPlan: 'NONE', profilePictureUrl: 'ftp://x/y.png' }, /profilePictureUrl/],
      ];
      for (const [body, field] of cases) {
        assert.match(
          errorBody(await stack.call('POST', '/v1/accounts/create', { token: u.token, body }), 400, '/v1/accounts/create').message,
          field,
          JSON.stringify(body),
        );
      }
      const byAdmin = await stack.call('POST', '/v1/accounts/create', {
        token: admin,
        body: { userId: other.userId, type: 'INDIVIDUAL', subscriptionPlan: 'PREMIUM_MONTHLY' },
      });
      assert.equal(byAdmin.status, 200);
      assert.equal(byAdmin.body['subscriptionPlan'], 'PREMIUM_MONTHLY');
    });

    it("updates the owner's profile only; the plan is not an account field; others see 404", async () => {
      const u = await stack.user('STANDARD_USER', 'NONE');
      const stranger = await stack.user('STANDARD_USER');
      const updated = await stack.call('PATCH', '/v1/accounts/update', {
        token: u.token,
        body: { accountId: u.accountId, company: 'Stormy Ltd', industry: 'energy' },
      });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assert.equal(updated.body['company'], 'Stormy Ltd');
      const removed = await stack.call('PATCH', '/v1/accounts/update', { token: u.token, body: { accountId: u.accountId, industry: '' } });
      assert.equal(removed.body['industry'], undefined);
      const plan = await stack.call('PATCH', '/v1/accounts/update', { token: u.token, body: { accountId: u.accountId, subscriptionPlan: 'PREMIUM_YEARLY' } });
      assert.match(errorBody(plan, 400, '/v1/accounts/update').message, /subscriptionPlan is not a known field/);
      errorBody(
        await stack.call('PATCH', '/v1/accounts/update', { token: stranger.token, body: { accountId: u.accountId, company: 'Mine now' } }),
        404,
        '/v1/accounts/update',
      );
      errorBody(await stack.call('GET', `/v1/accounts/${u.userId}`, { token: stranger.token }), 404, `/v1/accounts/${u.userId}`);
      const power = await stack.user('POWER_USER');
      assert.equal((await stack.call('GET', `/v1/accounts/${u.userId}`, { token: power.token })).body['company'], 'Stormy Ltd');
      errorBody(await stack.call('GET', `/v1/accounts/${NIL_UUID}`, { token: admin }), 404, `/v1/accounts/${NIL_UUID}`);
    });
  });

  describe('phone activation (4.15 and its completion)', () => {
    it('sends a 6-digit code by SMS over Kafka and verifies the number with it', async () => {
      const u = await stack.user('STANDARD_USER', 'NONE');
      const phone = `+9053${String(Date.now()).slice(-8)}`;
      assert.equal(
        (await stack.call('PATCH', '/v1/accounts/update', { token: u.token, body: { accountId: u.accountId, mobilePhoneNumber: phone } })).status,
        200,
      );
      const before = Date.now();
      const sent = await stack.call('POST', '/v1/accounts/phone-number-activation-request', {
        token: u.token,
        body: { userId: u.userId, accountId: u.accountId, phoneNumberActivationPageLink: `${LINK_ORIGIN}/activate` },
      });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      assert.deepEqual(
        { ...sent.body, tokenExpirationEpoch: undefined },
        { userId: u.userId, accountId: u.accountId, recipientPhoneNumber: phone, tokenExpirationEpoch: undefined, smsSent: true },
      );
      const expiry = Number(sent.body['tokenExpirationEpoch']);
      assert.ok(expiry > before + 9 * 60_000 && expiry <= Date.now() + 10 * 60_000);
      const sms = await stack.mailbox.next(phone, 'MESSAGE_TEMPLATE_PHONE_ACTIVATION');
      assert.equal(sms.channel, 'MESSAGE_CHANNEL_SMS');
      const code = sms.params['code'] ?? '';
      assert.match(code, /^\d{6}$/);

      const wrongCode = code === '000000' ? '111111' : '000000';
      const wrong = await stack.call('POST', '/v1/accounts/phone-number-activation', { token: u.token, body: { accountId: u.accountId, code: wrongCode } });
      assert.match(errorBody(wrong, 400, '/v1/accounts/phone-number-activation').message, /code.*4 attempt\(s\) left/);
      const malformed = await stack.call('POST', '/v1/accounts/phone-number-activation', { token: u.token, body: { accountId: u.accountId, code: '12ab' } });
      assert.match(errorBody(malformed, 400, '/v1/accounts/phone-number-activation').message, /code/);
      const done = await stack.call('POST', '/v1/accounts/phone-number-activation', { token: u.token, body: { accountId: u.accountId, code } });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      assert.equal(done.body['mobilePhoneNumberVerified'], true);
      const again = await stack.call('POST', '/v1/accounts/phone-number-activation-request', {
        token: u.token,
        body: { userId: u.userId, accountId: u.accountId, phoneNumberActivationPageLink: `${LINK_ORIGIN}/activate` },
      });
      errorBody(again, 409, '/v1/accounts/phone-number-activation-request');
    });

    it("limits wrong codes, and keeps other people's accounts out of reach", async () => {
      const u = await stack.user('STANDARD_USER', 'NONE');
      await stack.call('PATCH', '/v1/accounts/update', {
        token: u.token,
        body: { accountId: u.accountId, mobilePhoneNumber: `+9054${String(Date.now()).slice(-8)}` },
      });
      const body = { userId: u.userId, accountId: u.accountId, phoneNumberActivationPageLink: `${LINK_ORIGIN}/activate` };
      const stranger = await stack.user('STANDARD_USER');
      errorBody(
        await stack.call('POST', '/v1/accounts/phone-number-activation-request', { token: stranger.token, body }),
        404,
        '/v1/accounts/phone-number-activation-request',
      );
      assert.equal((await stack.call('POST', '/v1/accounts/phone-number-activation-request', { token: u.token, body })).status, 200);
      for (let i = 0; i < 5; i++) {
        await stack.call('POST', '/v1/accounts/phone-number-activation', { token: u.token, body: { accountId: u.accountId, code: '999999' } });
      }
      const locked = await stack.call('POST', '/v1/accounts/phone-number-activation', { token: u.token, body: { accountId: u.accountId, code: '999999' } });
      assert.match(errorBody(locked, 400, '/v1/accounts/phone-number-activation').message, /Too many wrong codes/);
      const noPhone = await stack.user('STANDARD_USER', 'NONE');
      const missing = await stack.call('POST', '/v1/accounts/phone-number-activation-request', {
        token: noPhone.token,
        body: { userId: noPhone.userId, accountId: noPhone.accountId, phoneNumberActivationPageLink: `${LINK_ORIGIN}/activate` },
      });
      assert.match(errorBody(missing, 400, '/v1/accounts/phone-number-activation-request').message, /mobilePhoneNumber/);
    });
  });

  describe('subscriptions', () => {
    it('lets an ADMIN set a plan with the incumbent body, and the owner read it', async () => {
      const u = await stack.user('API_USER', 'NONE');
      const expiration = Date.now() + 90 * 86_400_000;
      const set = await stack.call('POST', '/v1/accounts/update-subscription', {
        token: admin,
        body: {
          accountId: u.accountId,
          userId: u.userId,
          subscriptionPlan: 'CUSTOM',
          planDetails: {
            subscriptionExpirationEpoch: expiration,
            details: [
              {
                limitResetRecurrence: { limitType: 'MONTHLY', limitResetInterval: 1 },
                geoBoundary: { country: 'TUR', region: 'İzmir' },
                apiServiceLimits: [{ version: 'v1', serviceName: 'precipitations', maxInvocation: 1000 }],
              },
              {
                limitResetRecurrence: { limitType: 'QUOTA' },
                geoBoundary: { country: 'CTR' },
                apiServiceLimits: [{ serviceName: 'FORECAST', maxInvocation: 50 }],
              },
            ],
          },
        },
      });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      const expected = {
        userId: u.userId,
        accountId: u.accountId,
        subscriptionPlan: 'CUSTOM',
        subscriptionExpirationEpoch: expiration,
        active: true,
        geographicBoundaries: [{ country: 'TUR', region: 'İzmir' }, { country: 'CTR' }],
        serviceLimits: [
          { serviceName: 'PRECIPITATION', maxInvocation: 1000, limitType: 'MONTHLY', limitResetInterval: 1 },
          { serviceName: 'FORECAST', maxInvocation: 50, limitType: 'QUOTA', limitResetInterval: 1 },
        ],
      };
      assert.deepEqual({ ...set.body, warnings: undefined }, { ...expected, warnings: undefined });
      const read = await stack.call('GET', `/v1/accounts/subscription/${String(u.accountId)}`, { token: u.token });
      assert.deepEqual(read.body, { ...expected, warnings: [] });
      assert.equal((await stack.call('GET', '/v1/users/me', { token: u.token })).body['account'] instanceof Object, true);
    });

    it('fills in plan defaults, warns about odd grants, and names bad paths', async () => {
      const u = await stack.user('API_USER', 'NONE');
      const premium = await stack.call('POST', '/v1/accounts/update-subscription', {
        token: admin,
        body: { accountId: u.accountId, subscriptionPlan: 'PREMIUM_MONTHLY' },
      });
      assert.equal(premium.status, 200);
      assert.equal((premium.body['serviceLimits'] as unknown[]).length, 7, 'premium grants every metered service');
      assert.ok(Number(premium.body['subscriptionExpirationEpoch']) > Date.now() + 27 * 86_400_000);
      const past = await stack.call('POST', '/v1/accounts/update-subscription', {
        token: admin,
        body: { accountId: u.accountId, subscriptionPlan: 'TRIAL', planDetails: { subscriptionExpirationEpoch: 1000 } },
      });
      assert.deepEqual(past.body['warnings'], ['The subscription is already expired']);
      assert.equal(past.body['active'], false);
      const never = await stack.call('POST', '/v1/accounts/update-subscription', {
        token: admin,
        body: { accountId: u.accountId, subscriptionPlan: 'CUSTOM', planDetails: { subscriptionExpirationEpoch: null } },
      });
      assert.equal(never.body['subscriptionExpirationEpoch'], null);
      assert.deepEqual(never.body['warnings'], ['The subscription grants no service']);

      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [
          { details: [{ limitResetRecurrence: { limitType: 'HOURLY' }, apiServiceLimits: [] }] },
          /planDetails\.details\/0\/limitResetRecurrence\/limitType|limitType/,
        ],
        [
          { details: [{ limitResetRecurrence: { limitType: 'DAILY' }, apiServiceLimits: [{ serviceName: 'lightnings', maxInvocation: 5 }] }] },
          /serviceName: unknown service/,
        ],
        [{ details: [{ limitResetRecurrence: { limitType: 'DAILY' }, apiServiceLimits: [{ serviceName: 'FORECAST', maxInvocation: -1 }] }] }, /maxInvocation/],
        [{ details: [{ geoBoundary: { country: 'GRC' } }] }, /country/],
      ];
      for (const [planDetails, field] of cases) {
        const answer = await stack.call('POST', '/v1/accounts/update-subscription', {
          token: admin,
          body: { accountId: u.accountId, subscriptionPlan: 'CUSTOM', planDetails },
        });
        assert.match(errorBody(answer, 400, '/v1/accounts/update-subscription').message, field, JSON.stringify(planDetails));
      }
      errorBody(
        await stack.call('POST', '/v1/accounts/update-subscription', { token: admin, body: { accountId: NIL_UUID, subscriptionPlan: 'TRIAL' } }),
        404,
        '/v1/accounts/update-subscription',
      );
      const mismatch = await stack.call('POST', '/v1/accounts/update-subscription', {
        token: admin,
        body: { accountId: u.accountId, userId: NIL_UUID, subscriptionPlan: 'TRIAL' },
      });
      errorBody(mismatch, 404, '/v1/accounts/update-subscription');
    });

    it('shows a subscription to its owner and POWER_USER and above only', async () => {
      const u = await stack.user('API_USER', 'TRIAL');
      const stranger = await stack.user('STANDARD_USER');
      const power = await stack.user('POWER_USER');
      const path = `/v1/accounts/subscription/${String(u.accountId)}`;
      errorBody(await stack.call('GET', path, { token: stranger.token }), 404, path);
      assert.equal((await stack.call('GET', path, { token: power.token })).body['subscriptionPlan'], 'TRIAL');
      assert.match(
        errorBody(await stack.call('GET', '/v1/accounts/subscription/123', { token: u.token }), 400, '/v1/accounts/subscription/123').message,
        /accountId/,
      );
    });
  });
});
