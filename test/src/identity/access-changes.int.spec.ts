import assert from 'node:assert/strict';
import type { RequestHandler } from 'express';
import type { CommandStartedEvent } from 'mongodb';
import { principalOf } from '@stormhook/gateway';
import { testInfra } from '@stormhook/testing';
import { errorBody, LINK_ORIGIN, PLACES, startIdentityStack, type Answer, type IdentityStack } from './support.js';

/** The documented bound: a change made through identity is in force at every gateway within this. */
const BOUND_MS = 5_000;

/** Stand-ins that show what the gateway forwards downstream: the principal, role included. */
const echo: RequestHandler = (req, res) => {
  res.json({ principal: principalOf(req) });
};
const handlers = { getCurrentForecast: echo, getPrecipitationPage: echo };

const forecastAt = (point: { lat: number; lng: number }) => ({ location: { lat: point.lat, lng: point.lng }, metrics: ['TEMPERATURE'], forecastDays: 1 });

/** Repeats `call` until `done` holds, and says how long that took; fails past the bound. */
async function within(boundMs: number, call: () => Promise<Answer>, done: (answer: Answer) => boolean): Promise<{ ms: number; answer: Answer }> {
  const started = Date.now();
  for (;;) {
    const answer = await call();
    const ms = Date.now() - started;
    if (done(answer)) return { ms, answer };
    if (ms > boundMs) assert.fail(`still ${answer.status} ${JSON.stringify(answer.body)} after ${ms} ms (bound ${boundMs} ms)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('access changes reach the gateway within the documented bound (issue 13)', function () {
  this.timeout(120_000);
  let stack: IdentityStack;
  let admin: string;
  /**
   * A second gateway replica. Callers use it, changes go through the first: the replica that serves a
   * change applies it at once itself, so only this one shows that the change event reaches the others.
   */
  let replica: string;
  /** Every command identity sends to its database, as the driver's command monitoring reports them. */
  const commands: string[] = [];

  before(async () => {
    const url = new URL(testInfra().mongoUrl);
    url.searchParams.set('monitorCommands', 'true');
    stack = await startIdentityStack(handlers, {
      // Expiries far beyond the bound: what the test sees within it is the change events' doing. Its
      // dozens of logins from one address within a minute are counted by both replicas together now
      // (the abuse limits are shared), so the per-address login limit is lifted here; it has its own tests.
      gatewayEnv: { ACCESS_SNAPSHOT_TTL_MS: '60000', API_KEY_CACHE_TTL_MS: '600000', GATEWAY_AUTH_LIMIT_PER_ADDRESS_PER_MIN: '1000' },
      identityEnv: { MONGO_URL: url.toString() },
    });
    stack.identity.platform.mongo.client.on('commandStarted', (event: CommandStartedEvent) => commands.push(event.commandName));
    admin = await stack.adminToken();
    replica = `http://127.0.0.1:${(await stack.startGateway()).port}`;
    assert.notEqual(replica, stack.baseUrl);
  });
  after(async () => {
    await stack?.stop();
  });

  const forecast = (credentials: { token?: string; apiKey?: string }) =>
    stack.call('POST', '/v1/forecasts/current', { ...credentials, body: forecastAt(PLACES.ankara), baseUrl: replica });

  it('refuses a blocked user within the bound, though their access token is still valid', async () => {
    const u = await stack.user('API_USER', 'PREMIUM_MONTHLY');
    assert.equal((await forecast({ token: u.token })).status, 200);
    const blocked = await stack.call('PATCH', '/v1/users/update-role-status', { token: admin, body: { userId: u.userId, status: 'BLOCKED' } });
    assert.equal(blocked.status, 200, JSON.stringify(blocked.body));
    const { ms, answer } = await within(
      BOUND_MS,
      () => forecast({ token: u.token }),
      (a) => a.status !== 200,
    );
    assert.equal(errorBody(answer, 401, '/v1/forecasts/current').message, 'The session has ended; sign in again');
    console.log(`      blocked user refused after ${ms} ms`);
  });

  it('refuses an access token within the bound once its user logs out, and takes a new login at once (issue 23)', async () => {
    const u = await stack.user('API_USER', 'PREMIUM_MONTHLY');
    const session = await stack.login(u.username, u.password);
    assert.equal((await forecast({ token: session.accessToken })).status, 200);
    const out = await stack.call('POST', '/v1/auth/logout', { body: { refreshToken: session.refreshToken } });
    assert.ok(out.status < 300, JSON.stringify(out.body));
    // Straight after the logout, very likely in its second: the JWT iat cannot tell this login from the old one.
    const fresh = await stack.login(u.username, u.password);
    const { ms, answer } = await within(
      BOUND_MS,
      () => forecast({ token: session.accessToken }),
      (a) => a.status !== 200,
    );
    assert.equal(errorBody(answer, 401, '/v1/forecasts/current').message, 'The session has ended; sign in again');
    assert.equal((await forecast({ token: u.token })).status, 401, "the user's other access tokens end with it");
    console.log(`      logged-out access token refused after ${ms} ms`);
    assert.equal((await forecast({ token: fresh.accessToken })).status, 200, 'a login in the same second as the logout is not refused');
    assert.equal((await forecast({ token: (await stack.login(u.username, u.password)).accessToken })).status, 200);
  });

  it('refuses an access token within the bound once its user resets the password; the new password signs in', async () => {
    const u = await stack.user('API_USER', 'PREMIUM_MONTHLY');
    assert.equal((await forecast({ token: u.token })).status, 200);
    await stack.call('POST', '/v1/users/password-reset-request', { body: { username: u.username, resetPageLink: `${LINK_ORIGIN}/reset` } });
    const link = new URL((await stack.mailbox.next(u.username, 'MESSAGE_TEMPLATE_PASSWORD_RESET')).params['link'] ?? '');
    const done = await stack.call('POST', '/v1/users/password-reset', {
      body: { userId: link.searchParams.get('userId'), token: link.searchParams.get('token'), newPassword: 'a-new-password-after-reset' },
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const { ms, answer } = await within(
      BOUND_MS,
      () => forecast({ token: u.token }),
      (a) => a.status !== 200,
    );
    assert.equal(errorBody(answer, 401, '/v1/forecasts/current').message, 'The session has ended; sign in again');
    console.log(`      access token refused ${ms} ms after a password reset`);
    const fresh = await stack.login(u.username, 'a-new-password-after-reset');
    assert.equal((await forecast({ token: fresh.accessToken })).status, 200);
  });

  it('keeps the access tokens of a blocked user dead after an unblock', async () => {
    const u = await stack.user('API_USER', 'PREMIUM_MONTHLY');
    assert.equal((await forecast({ token: u.token })).status, 200);
    for (const status of ['BLOCKED', 'ACTIVE']) {
      const changed = await stack.call('PATCH', '/v1/users/update-role-status', { token: admin, body: { userId: u.userId, status } });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
    }
    await within(
      BOUND_MS,
      () => forecast({ token: u.token }),
      (a) => a.status !== 200,
    );
    // A fresh login works at the replica once it holds the state after the unblock; the old token stays refused there.
    const fresh = await stack.login(u.username, u.password);
    await within(
      BOUND_MS,
      () => forecast({ token: fresh.accessToken }),
      (a) => a.status === 200,
    );
    errorBody(await forecast({ token: u.token }), 401, '/v1/forecasts/current');
  });

  it('refuses a revoked API key within the bound, though the key cache would trust it for 10 minutes', async () => {
    const bot = await stack.user('API_USER', 'PREMIUM_MONTHLY');
    const created = await stack.call('POST', '/v1/api-keys/create', { token: bot.token, body: { name: 'to revoke' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const apiKey = String(created.body['apiKey']);
    assert.equal((await forecast({ apiKey })).status, 200);
    assert.equal((await forecast({ apiKey })).status, 200);
    const revoked = await stack.call('DELETE', `/v1/api-keys/revoke/${String(created.body['keyId'])}`, { token: bot.token });
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    const { ms, answer } = await within(
      BOUND_MS,
      () => forecast({ apiKey }),
      (a) => a.status !== 200,
    );
    assert.equal(errorBody(answer, 401, '/v1/forecasts/current').message, 'Invalid API key');
    console.log(`      revoked key refused after ${ms} ms`);
  });

  it('applies a new subscription within the bound (402 until an ADMIN grants a plan, then allowed)', async () => {
    const u = await stack.user('API_USER', 'NONE');
    errorBody(await forecast({ token: u.token }), 402, '/v1/forecasts/current');
    const set = await stack.call('POST', '/v1/accounts/update-subscription', {
      token: admin,
      body: { accountId: u.accountId, subscriptionPlan: 'PREMIUM_MONTHLY' },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    await within(
      BOUND_MS,
      () => forecast({ token: u.token }),
      (a) => a.status === 200,
    );
  });

  it("takes a demoted ADMIN's rights away within the bound, and forwards the current role, not the token's", async () => {
    const second = await stack.user('ADMIN', 'PREMIUM_MONTHLY');
    const before = await forecast({ token: second.token });
    assert.equal((before.body['principal'] as Record<string, unknown>)['role'], 'ADMIN');
    assert.equal((await stack.call('POST', '/v1/users/page', { token: second.token, body: { pageNumber: 0, pageSize: 5 }, baseUrl: replica })).status, 200);

    const demoted = await stack.call('PATCH', '/v1/users/update-role-status', { token: admin, body: { userId: second.userId, role: 'API_USER' } });
    assert.equal(demoted.status, 200, JSON.stringify(demoted.body));
    // The token still claims ADMIN for up to 15 minutes; the gateway acts on the stored role.
    await within(
      BOUND_MS,
      () => stack.call('POST', '/v1/users/page', { token: second.token, body: { pageNumber: 0, pageSize: 5 }, baseUrl: replica }),
      (a) => a.status === 403,
    );
    const after = await forecast({ token: second.token });
    assert.equal(after.status, 200);
    assert.equal((after.body['principal'] as Record<string, unknown>)['role'], 'API_USER', 'downstream services see the demoted role');
  });

  it('makes no database command at identity for authenticated requests in the steady state', async () => {
    const u = await stack.user('API_USER', 'PREMIUM_MONTHLY');
    const bot = await stack.user('API_USER', 'PREMIUM_MONTHLY');
    const created = await stack.call('POST', '/v1/api-keys/create', { token: bot.token, body: { name: 'steady' } });
    const apiKey = String(created.body['apiKey']);
    // Warm: the first request of each caller reads its snapshot (and verifies the key) once.
    const cold = commands.length;
    assert.equal((await forecast({ token: u.token })).status, 200);
    assert.equal((await forecast({ apiKey })).status, 200);
    const before = commands.length;
    assert.ok(before > cold, "the monitor sees identity's reads (the cold snapshot and key verification)");
    for (let i = 0; i < 250; i++) {
      const [a, b] = await Promise.all([forecast({ token: u.token }), forecast({ apiKey })]);
      assert.equal(a.status, 200);
      assert.equal(b.status, 200);
    }
    const during = commands.slice(before).filter((name) => name !== 'ping' && name !== 'hello' && name !== 'isMaster');
    assert.deepEqual(during, [], "500 authenticated requests sent no command to identity's database");
  });
});
