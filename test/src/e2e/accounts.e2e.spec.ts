import assert from 'node:assert/strict';
import { createCustomer, type Customer } from './support/customer.js';
import { e2eStack, type E2eStack } from './support/e2e-stack.js';
import { assertError } from './support/errors.js';

const MESSAGES = {
  payment: 'You Need To Renew Your Subscription or Purchase New One',
  noSubscription: 'No Subscription Found For This Service Endpoint',
  limit: 'Your Subscription Limits For This Service is Exceeded',
};

const ankaraForecast = { location: { lat: 39.93, lng: 32.85 }, metrics: ['TEMPERATURE'], forecastDays: 1 };
const istanbulForecast = { location: { lat: 41.01, lng: 28.97 }, metrics: ['TEMPERATURE'], forecastDays: 1 };

/** README "Accounts, users and subscriptions", then interface.md 5 and 7, driven through /v1 only. */
describe('e2e: accounts, users, subscriptions and access', function () {
  this.timeout(120_000);
  let stack: E2eStack;
  let admin: string;
  let customer: Customer;

  before(async function () {
    this.timeout(300_000);
    stack = await e2eStack();
    admin = await stack.adminToken();
  });

  it("logs the administrator in with the README's answer shape, and refuses a wrong password with a 401", async () => {
    const answer = await stack.api.expect(200, 'POST', '/v1/auth/login', { body: { username: stack.admin.email, password: stack.admin.password } });
    assert.deepEqual(Object.keys(answer.body).sort(), ['accessToken', 'expiresIn', 'refreshToken', 'type', 'username']);
    assert.equal(answer.body.type, 'Bearer');
    assert.equal(answer.body.username, stack.admin.email);
    assert.ok(answer.body.expiresIn > 0);
    const wrong = await stack.api.call('POST', '/v1/auth/login', { body: { username: stack.admin.email, password: 'not-the-password' } });
    assertError(wrong, 401, '/v1/auth/login');
  });

  it('creates a customer limited to Ankara, who reads itself on /v1/users/me and its subscription', async () => {
    customer = await createCustomer(stack.api, admin, { geoBoundary: { country: 'TUR', region: 'Ankara' }, company: 'Ankara Grid' });
    const me = await stack.api.expect(200, 'GET', '/v1/users/me', { token: customer.token });
    assert.equal(me.body.userId, customer.userId);
    assert.equal(me.body.username, customer.username);
    assert.equal(me.body.roles, 'API_USER');
    assert.equal(me.body.status, 'ACTIVE');
    assert.equal(me.body.account.id, customer.accountId, 'the account id, which registrations reuse the webhook with');
    assert.equal(me.body.account.subscriptionPlan, 'CUSTOM');
    assert.equal(me.body.account.company, 'Ankara Grid');
    assert.doesNotMatch(me.text, /password|hash/i, 'nothing secret comes back');
    const subscription = await stack.api.expect(200, 'GET', `/v1/accounts/subscription/${customer.accountId}`, { token: customer.token });
    assert.equal(subscription.body.subscriptionPlan, 'CUSTOM');
    assert.equal(subscription.body.active, true);
    assert.deepEqual(subscription.body.geographicBoundaries, [{ country: 'TUR', region: 'Ankara' }]);
  });

  it('lets the customer make an API key shown once, listed masked, that authenticates machine calls', async () => {
    const created = await stack.api.expect(201, 'POST', '/v1/api-keys/create', { token: customer.token, body: { name: 'production poller' } });
    const apiKey = String(created.body.apiKey);
    const listed = await stack.api.expect(200, 'GET', '/v1/api-keys', { token: customer.token });
    const entry = listed.body.apiKeys.find((k: { keyId: string }) => k.keyId === created.body.keyId);
    assert.ok(entry, 'the key is listed');
    assert.ok(!listed.text.includes(apiKey), 'the list never shows the key');
    assert.equal(entry.maskedKey.slice(-4), apiKey.slice(-4));
    // Before any forecast is published the answer is a 404 naming the place: past authentication either way.
    const viaKey = await stack.api.call('POST', '/v1/forecasts/current', { apiKey, body: ankaraForecast });
    assert.ok([200, 404].includes(viaKey.status), `X-API-Key call answered ${viaKey.status}: ${viaKey.text}`);
    assertError(await stack.api.call('GET', '/v1/users/me', { apiKey: `${apiKey}x` }), 401);
    assertError(await stack.api.call('GET', '/v1/users/me', { apiKey, token: customer.token }), 401);
  });

  it('rotates the refresh token on refresh, ends the session when a used one comes back, and logs out', async () => {
    const session = await stack.api.login(customer.username, customer.password);
    const refreshed = await stack.api.expect(200, 'POST', '/v1/auth/refresh', { body: { refreshToken: session.refreshToken } });
    assert.notEqual(refreshed.body.refreshToken, session.refreshToken);
    assertError(await stack.api.call('POST', '/v1/auth/refresh', { body: { refreshToken: session.refreshToken } }), 401, '/v1/auth/refresh');
    // Reuse of a rotated token ends the whole session, so the newest one is dead too.
    assertError(await stack.api.call('POST', '/v1/auth/refresh', { body: { refreshToken: refreshed.body.refreshToken } }), 401);
    // A customer of its own: logout ends every access token of the user, and the later tests use `customer`'s.
    const leaving = await createCustomer(stack.api, admin);
    const other = await stack.api.login(leaving.username, leaving.password);
    await stack.api.expect(200, 'GET', '/v1/users/me', { token: other.accessToken });
    const loggedOut = await stack.api.call('POST', '/v1/auth/logout', { body: { refreshToken: other.refreshToken } });
    assert.ok(loggedOut.status >= 200 && loggedOut.status < 300, `logout answered ${loggedOut.status}`);
    assertError(await stack.api.call('POST', '/v1/auth/refresh', { body: { refreshToken: other.refreshToken } }), 401);
    // The access token dies with the session, as soon as the gateway hears of it, not 15 minutes later.
    const deadline = Date.now() + 5_000;
    let me = await stack.api.call('GET', '/v1/users/me', { token: other.accessToken });
    while (me.status === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      me = await stack.api.call('GET', '/v1/users/me', { token: other.accessToken });
    }
    assertError(me, 401, '/v1/users/me');
    const again = await stack.api.login(leaving.username, leaving.password);
    await stack.api.expect(200, 'GET', '/v1/users/me', { token: again.accessToken });
  });

  it('answers 401 without credentials and with a forged token, as ErrorResponses', async () => {
    assertError(await stack.api.call('POST', '/v1/precipitations/geometry', { body: { eventIds: [] } }), 401, '/v1/precipitations/geometry');
    assertError(await stack.api.call('GET', '/v1/users/me', { token: `${customer.token.slice(0, -4)}AAAA` }), 401, '/v1/users/me');
  });

  it("answers 402 for a plan of NONE and 403 for a service outside the plan, with the contract's messages", async () => {
    const unpaid = await createCustomer(stack.api, admin, { plan: 'NONE' });
    assert.equal(
      assertError(await stack.api.call('POST', '/v1/forecasts/current', { token: unpaid.token, body: ankaraForecast }), 402).message,
      MESSAGES.payment,
    );
    const forecastsOnly = await createCustomer(stack.api, admin, { limits: { forecasts: 100 } });
    const page = { backwardInterval: 600, endTimeEpoch: Date.now(), pageNumber: 0, pageSize: 10 };
    assert.equal(
      assertError(await stack.api.call('POST', '/v1/precipitations/page', { token: forecastsOnly.token, body: page }), 403).message,
      MESSAGES.noSubscription,
    );
  });

  it("answers 403 naming the place and the subscription's geography for a location outside Ankara", async () => {
    const outside = await stack.api.call('POST', '/v1/forecasts/current', { token: customer.token, body: istanbulForecast });
    assert.equal(
      assertError(outside, 403, '/v1/forecasts/current').message,
      'The Location You Are Querying [41.01, 28.97] Is Not Within The Geographic Boundaries Allowed In Your Subscription [Türkiye, Ankara]',
    );
    const crop = await stack.api.call('POST', '/v1/precipitations/geometry', {
      token: customer.token,
      body: { eventIds: [], center: { lat: 41.01, lng: 28.97 }, radius: 1000 },
    });
    assert.match(
      assertError(crop, 403, '/v1/precipitations/geometry').message,
      /^The Location You Are Querying \[41\.01, 28\.97\] Is Not Within .*\[Türkiye, Ankara\]$/,
    );
  });

  it('shows the quota on metered answers and answers 429 with Retry-After once it is spent', async () => {
    const small = await createCustomer(stack.api, admin, { limits: { geo: 3 } });
    const call = () => stack.api.call('GET', '/v1/alarms/forecasts/CTR/cities', { token: small.token });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await call();
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.headers.get('ratelimit-limit'), '3');
      assert.equal(answer.headers.get('ratelimit-policy'), '3;w=86400');
      remaining.push(answer.headers.get('ratelimit-remaining') ?? '');
    }
    assert.deepEqual(remaining, ['2', '1', '0']);
    const spent = await call();
    assert.equal(assertError(spent, 429, '/v1/alarms/forecasts/CTR/cities').message, MESSAGES.limit);
    const retryAfter = Number(spent.headers.get('retry-after'));
    const toMidnight = (Math.floor(Date.now() / 86_400_000 + 1) * 86_400_000 - Date.now()) / 1000;
    assert.ok(retryAfter > 0 && Math.abs(retryAfter - toMidnight) <= 5, `Retry-After ${retryAfter}, ${toMidnight.toFixed(0)} s to the daily reset`);
  });
});
