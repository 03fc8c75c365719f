import assert from 'node:assert/strict';
import { createCustomer, type Customer } from './support/customer.js';
import { e2eStack, type E2eStack } from './support/e2e-stack.js';
import { assertError } from './support/errors.js';
import { waitForMessage } from './support/outbox.js';

/** The origin the e2e stack allows for links (STORMHOOK_ALLOWED_LINK_ORIGINS, as in the README). */
const LINK_ORIGIN = 'http://localhost:3000';

/** interface.md 4.14 to 4.18 and the user rules of section 5, with SMS and e-mail read from the outbox. */
describe('e2e: users and accounts (4.14 - 4.18)', function () {
  this.timeout(90_000);
  let stack: E2eStack;
  let admin: string;
  let customer: Customer;

  before(async function () {
    this.timeout(300_000);
    stack = await e2eStack();
    admin = await stack.adminToken();
    customer = await createCustomer(stack.api, admin, { company: 'Users Spec Ltd' });
  });

  it('lists users for ADMIN only, filtered with the bracket notation, sorted, paged, with accounts (4.16)', async () => {
    const body = { roles: '[API_USER]', status: '[ACTIVE]', sortBy: { username: 'asc' }, pageNumber: 0, pageSize: 100, includeAccount: true };
    const page = await stack.api.expect(200, 'POST', '/v1/users/page', { token: admin, body });
    const users = page.body.users as Array<{ username: string; roles: string; account?: { id: string } }>;
    assert.ok(users.every((u) => u.roles === 'API_USER'));
    const names = users.map((u) => u.username);
    assert.deepEqual(names, [...names].sort());
    assert.equal(users.find((u) => u.username === customer.username)?.account?.id, customer.accountId);
    assert.ok(page.body.totalRecords >= users.length);
    assertError(await stack.api.call('POST', '/v1/users/page', { token: customer.token, body }), 403, '/v1/users/page');
    for (const pageSize of [0, 101]) {
      assert.match(assertError(await stack.api.call('POST', '/v1/users/page', { token: admin, body: { ...body, pageSize } }), 400).message, /pageSize/);
    }
  });

  it('lets POWER_USER and above read a user (4.17), and an ADMIN change a role and status', async () => {
    const power = await createCustomer(stack.api, admin, { role: 'POWER_USER' });
    const read = await stack.api.expect(200, 'GET', `/v1/users/${customer.userId}`, { token: power.token });
    assert.equal(read.body.username, customer.username);
    const blocked = await createCustomer(stack.api, admin);
    await stack.api.expect(200, 'PATCH', '/v1/users/update-role-status', { token: admin, body: { userId: blocked.userId, status: 'BLOCKED' } });
    // The right password of a blocked user: refused, saying why (a wrong one stays a plain 401).
    const login = await stack.api.call('POST', '/v1/auth/login', { body: { username: blocked.username, password: blocked.password } });
    assert.match(assertError(login, 403, '/v1/auth/login').message, /blocked/);
  });

  it("updates the owner's account (4.14) and verifies its phone with the SMS code (4.15)", async () => {
    const phone = `+90532${String(Date.now()).slice(-7)}`;
    const updated = await stack.api.expect(200, 'PATCH', '/v1/accounts/update', {
      token: customer.token,
      body: { accountId: customer.accountId, mobilePhoneNumber: phone, industry: 'energy', location: 'Çankaya, Ankara' },
    });
    assert.equal(updated.body.mobilePhoneNumber, phone);
    assert.equal(updated.body.mobilePhoneNumberVerified, false);
    const requested = await stack.api.expect(200, 'POST', '/v1/accounts/phone-number-activation-request', {
      token: customer.token,
      body: { userId: customer.userId, accountId: customer.accountId, phoneNumberActivationPageLink: `${LINK_ORIGIN}/activate` },
    });
    assert.equal(requested.body.recipientPhoneNumber, phone);
    assert.equal(requested.body.smsSent, true);
    assert.ok(requested.body.tokenExpirationEpoch > Date.now());
    const sms = await waitForMessage(stack.outboxDir, phone, 'sms');
    const code = /\b(\d{6})\b/.exec(sms.text)?.[1];
    assert.ok(code, `no 6-digit code in "${sms.text}"`);
    const verified = await stack.api.expect(200, 'POST', '/v1/accounts/phone-number-activation', {
      token: customer.token,
      body: { accountId: customer.accountId, code },
    });
    assert.equal(verified.body.mobilePhoneNumberVerified, true);
  });

  it('resets a forgotten password through the e-mailed link (4.18); the link works once', async () => {
    const user = await createCustomer(stack.api, admin);
    const known = await stack.api.call('POST', '/v1/users/password-reset-request', {
      body: { username: user.username, resetPageLink: `${LINK_ORIGIN}/reset` },
    });
    const unknown = await stack.api.call('POST', '/v1/users/password-reset-request', {
      body: { username: `nobody-${Date.now()}@e2e.example.com`, resetPageLink: `${LINK_ORIGIN}/reset` },
    });
    assert.equal(known.status, 202);
    assert.equal(unknown.status, 202, 'the answer does not tell who has an account');
    assert.deepEqual(unknown.body, known.body);
    const mail = await waitForMessage(stack.outboxDir, user.username, 'email');
    const link = new URL(/https?:\/\/\S+/.exec(mail.text)?.[0] ?? '');
    assert.equal(link.origin, LINK_ORIGIN);
    const reset = {
      userId: link.searchParams.get('userId'),
      token: link.searchParams.get('token'),
      newPassword: 'a-brand-new-password-1',
      loginPageLink: `${LINK_ORIGIN}/login`,
    };
    assert.equal(reset.userId, user.userId);
    await stack.api.expect(200, 'POST', '/v1/users/password-reset', { body: reset });
    await stack.api.login(user.username, 'a-brand-new-password-1');
    assertError(await stack.api.call('POST', '/v1/auth/login', { body: { username: user.username, password: user.password } }), 401);
    assertError(
      await stack.api.call('POST', '/v1/users/password-reset', { body: { ...reset, newPassword: 'yet-another-password-2' } }),
      400,
      '/v1/users/password-reset',
    );
  });
});
