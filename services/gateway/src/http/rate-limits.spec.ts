import assert from 'node:assert/strict';
import type { RequestHandler } from 'express';
import { ErrorMessages } from '@stormhook/errors';
import { request, serve, type RunningApp } from '../test-support/serve.js';
import type { RouteSpec } from '../contract/route-spec.js';
import { setAuthState } from './auth-state.js';
import { FakeShareTable } from '../test-support/fake-quota-shares.js';
import { soloAbuseCounter } from '../test-support/abuse-counter.js';
import { AbuseLimits, TEST_DELIVERY_COUNTER, type AbuseLimitSettings, type SharedCounter } from './rate-limits.js';

const OFF: AbuseLimitSettings = {
  authPerAddressPerMin: 0,
  passwordResetPerAddressPerHour: 0,
  unmeteredPerPrincipalPerMin: 0,
  errorsPerMin: 0,
  errorBlockS: 60,
  testDeliveriesPerAccountPerHour: 0,
  backtestsPerAccountPerHour: 0,
  // Whole limits per replica, as one replica alone has them; the cross-replica specs set their own.
  localAllowancePercent: 100,
};

/** Stands in for the access guards: the caller from `x-test-user` (`<userId>:<role>:<accountId>`), metered when `x-test-metered`. */
const fakeAccess = (operation: RouteSpec): RequestHandler[] =>
  operation.authenticated
    ? [
        (req, _res, next) => {
          const [userId = 'u1', role = 'STANDARD_USER', accountId = ''] = String(req.headers['x-test-user'] ?? '').split(':');
          setAuthState(req, {
            principal: { userId, role, accountId, username: `${userId}@example.com`, via: 'access-token' },
            access: { metered: req.headers['x-test-metered'] === '1' } as never,
          });
          next();
        },
      ]
    : [];

const ok: RequestHandler = (_req, res) => {
  res.status(200).json({ ok: true });
};

async function appWith(settings: Partial<AbuseLimitSettings>, shared: SharedCounter = soloAbuseCounter()): Promise<RunningApp> {
  const limits = new AbuseLimits({ ...OFF, ...settings }, shared);
  return serve({
    screen: limits.screen,
    guards: (operation) => [...limits.before(operation), ...fakeAccess(operation), ...limits.after(operation)],
    handlers: {
      login: ok,
      refreshToken: ok,
      requestPasswordReset: ok,
      getCurrentUser: ok,
      getWebhook: ok,
      sendWebhookTest: ok,
      redeliverDelivery: ok,
      backtestPointAlarm: ok,
      backtestGeometryAlarm: ok,
      getPointAlarmById: ok,
    },
  });
}

function assert429(answer: { status: number; headers: Headers; body: Record<string, unknown> }, path: string): void {
  assert.equal(answer.status, 429);
  assert.equal(answer.body['status'], 429);
  assert.equal(answer.body['error'], 'Too Many Requests');
  assert.equal(answer.body['message'], ErrorMessages.tooManyRequests);
  assert.equal(answer.body['path'], path);
  assert.ok(Number(answer.headers.get('retry-after')) >= 1, 'Retry-After in seconds');
}

const login = { username: 'ada@example.com', password: 'not-the-password' };

describe('abuse limits (issue 17 item 6)', () => {
  let app: RunningApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('limits login per address with a 429 ErrorResponse and Retry-After; refresh counts apart', async () => {
    app = await appWith({ authPerAddressPerMin: 3 });
    for (let i = 0; i < 3; i++) assert.equal((await request(app.baseUrl, 'POST', '/v1/auth/login', login)).status, 200);
    const refused = await request(app.baseUrl, 'POST', '/v1/auth/login', login);
    assert429(refused, '/v1/auth/login');
    assert.ok(Number(refused.headers.get('retry-after')) <= 60);
    assert.equal((await request(app.baseUrl, 'POST', '/v1/auth/refresh', { refreshToken: 'x'.repeat(40) })).status, 200);
  });

  it('limits password reset requests per address and hour', async () => {
    app = await appWith({ passwordResetPerAddressPerHour: 2 });
    const body = { username: 'ada@example.com', resetPageLink: 'https://app.example.com/reset' };
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await request(app.baseUrl, 'POST', '/v1/users/password-reset-request', body));
    assert.notEqual(answers[0]?.status, 429);
    assert.notEqual(answers[1]?.status, 429);
    assert429(answers[2]!, '/v1/users/password-reset-request');
    assert.ok(Number(answers[2]!.headers.get('retry-after')) > 60, 'the window is an hour');
  });

  it('limits unmetered calls per user, not metered ones, and never an ADMIN', async () => {
    app = await appWith({ unmeteredPerPrincipalPerMin: 2 });
    const as = (user: string, metered = false) => ({ 'x-test-user': user, ...(metered ? { 'x-test-metered': '1' } : {}) });
    for (let i = 0; i < 2; i++) assert.equal((await request(app.baseUrl, 'GET', '/v1/users/me', undefined, as('u1'))).status, 200);
    assert429(await request(app.baseUrl, 'GET', '/v1/users/me', undefined, as('u1')), '/v1/users/me');
    assert.equal((await request(app.baseUrl, 'GET', '/v1/users/me', undefined, as('u2'))).status, 200, 'another user has its own count');
    for (let i = 0; i < 5; i++)
      assert.equal((await request(app.baseUrl, 'GET', '/v1/users/me', undefined, as('u3', true))).status, 200, 'metered calls have their quota');
    for (let i = 0; i < 5; i++) assert.equal((await request(app.baseUrl, 'GET', '/v1/users/me', undefined, as('root:ADMIN'))).status, 200);
  });

  it('blocks a caller that collects many 4xx answers, by address and by user, but never health checks', async () => {
    app = await appWith({ errorsPerMin: 4, errorBlockS: 30 });
    for (let i = 0; i < 5; i++) assert.equal((await request(app.baseUrl, 'GET', `/v1/no-such-thing-${i}`)).status, 404);
    const blocked = await request(app.baseUrl, 'GET', '/v1/users/me', undefined, { 'x-test-user': 'u9' });
    assert429(blocked, '/v1/users/me');
    assert.ok(Number(blocked.headers.get('retry-after')) > 20 && Number(blocked.headers.get('retry-after')) <= 30, 'the block lasts GATEWAY_ERROR_BLOCK_S');
    assert.equal((await request(app.baseUrl, 'GET', '/v1/health/live')).status, 200);
    // The 429s themselves do not count, or a block would never end.
    assert.equal((await request(app.baseUrl, 'GET', '/v1/health/live')).status, 200);
  });

  it('caps webhook test deliveries per account and hour; an ADMIN is capped per named account', async () => {
    app = await appWith({ testDeliveriesPerAccountPerHour: 2 });
    const owner = { 'x-test-user': 'u1:STANDARD_USER:acc-1' };
    assert.equal((await request(app.baseUrl, 'POST', '/v1/alarms/webhooks/test', undefined, owner)).status, 200);
    assert.equal((await request(app.baseUrl, 'POST', '/v1/alarms/webhooks/test', undefined, { 'x-test-user': 'u2:POWER_USER:acc-1' })).status, 200);
    const third = await request(app.baseUrl, 'POST', '/v1/alarms/webhooks/test', undefined, owner);
    assert429(third, '/v1/alarms/webhooks/test');
    assert.ok(Number(third.headers.get('retry-after')) > 60);
    assert.equal((await request(app.baseUrl, 'POST', '/v1/alarms/webhooks/test', undefined, { 'x-test-user': 'u3:STANDARD_USER:acc-2' })).status, 200);
    const admin = { 'x-test-user': 'root:ADMIN:' };
    assert.equal((await request(app.baseUrl, 'POST', '/v1/alarms/webhooks/test?accountId=3f1c1e4e-8d2b-4a55-9a3e-0d9f7a1c2b3d', undefined, admin)).status, 200);
    assert.equal((await request(app.baseUrl, 'POST', '/v1/alarms/webhooks/test?accountId=3f1c1e4e-8d2b-4a55-9a3e-0d9f7a1c2b3d', undefined, admin)).status, 200);
    assert.equal((await request(app.baseUrl, 'POST', '/v1/alarms/webhooks/test?accountId=3f1c1e4e-8d2b-4a55-9a3e-0d9f7a1c2b3d', undefined, admin)).status, 429);
    assert.equal(
      (await request(app.baseUrl, 'POST', '/v1/alarms/webhooks/test', undefined, { 'x-test-user': 'u4:STANDARD_USER:acc-1' })).status,
      429,
      'acc-1 stays capped',
    );
  });

  it('counts manual redeliveries against the same hourly cap per account as test deliveries', async () => {
    app = await appWith({ testDeliveriesPerAccountPerHour: 3 });
    const owner = { 'x-test-user': 'u1:STANDARD_USER:acc-1' };
    const redeliver = '/v1/deliveries/ntf_0000000000000000000000001/redeliver';
    assert.equal((await request(app.baseUrl, 'POST', '/v1/alarms/webhooks/test', undefined, owner)).status, 200);
    assert.equal((await request(app.baseUrl, 'POST', redeliver, undefined, owner)).status, 200);
    assert.equal((await request(app.baseUrl, 'POST', redeliver, undefined, owner)).status, 200);
    const fourth = await request(app.baseUrl, 'POST', redeliver, undefined, owner);
    assert429(fourth, redeliver);
    assert.ok(Number(fourth.headers.get('retry-after')) > 60);
    assert.equal((await request(app.baseUrl, 'POST', '/v1/alarms/webhooks/test', undefined, owner)).status, 429, 'one count for both');
    assert.equal((await request(app.baseUrl, 'POST', redeliver, undefined, { 'x-test-user': 'u3:STANDARD_USER:acc-2' })).status, 200);
  });

  it('holds the test-delivery cap across replicas and restarts, through the shared counters', async () => {
    const table = new FakeShareTable();
    const meterOf = (instance: string) => soloAbuseCounter(table, instance);
    const [meterA, meterB] = [meterOf('a'), meterOf('b')];
    const replicaA = await appWith({ testDeliveriesPerAccountPerHour: 2 }, meterA);
    const replicaB = await appWith({ testDeliveriesPerAccountPerHour: 2 }, meterB);
    const owner = { 'x-test-user': 'u1:STANDARD_USER:acc-1' };
    try {
      assert.equal((await request(replicaA.baseUrl, 'POST', '/v1/alarms/webhooks/test', undefined, owner)).status, 200);
      assert.equal((await request(replicaB.baseUrl, 'POST', '/v1/alarms/webhooks/test', undefined, owner)).status, 200);
      await meterA.sync();
      await meterB.sync();
      await meterA.sync();
      // Each replica alone has let one through; in memory per replica each would allow another.
      const third = await request(replicaA.baseUrl, 'POST', '/v1/alarms/webhooks/test', undefined, owner);
      assert429(third, '/v1/alarms/webhooks/test');
      assert.ok(Number(third.headers.get('retry-after')) <= 3600, 'until the clock hour ends');
      assert.equal((await request(replicaB.baseUrl, 'POST', '/v1/alarms/webhooks/test', undefined, owner)).status, 429);
      // A replica started after both (a restart) reads the stored counts of the last hour first.
      const meterC = meterOf('c');
      meterC.start();
      const restarted = await appWith({ testDeliveriesPerAccountPerHour: 2 }, meterC);
      try {
        assert.equal((await request(restarted.baseUrl, 'POST', '/v1/alarms/webhooks/test', undefined, owner)).status, 429);
      } finally {
        await restarted.close();
        await meterC.stop();
      }
      assert.ok(
        [...table.docs.values()].every((d) => d.key.includes(`|${TEST_DELIVERY_COUNTER}|`)),
        'counted under its own service name',
      );
    } finally {
      await replicaA.close();
      await replicaB.close();
    }
  });

  it('counts sign-ins per address and unmetered calls across replicas through the shared counters', async () => {
    const table = new FakeShareTable();
    const [meterA, meterB] = [soloAbuseCounter(table, 'a'), soloAbuseCounter(table, 'b')];
    const settings = { authPerAddressPerMin: 3, unmeteredPerPrincipalPerMin: 2 };
    const replicaA = await appWith(settings, meterA);
    const replicaB = await appWith(settings, meterB);
    const as = { 'x-test-user': 'u1' };
    try {
      for (let i = 0; i < 3; i++) assert.equal((await request(replicaA.baseUrl, 'POST', '/v1/auth/login', login)).status, 200);
      assert.equal((await request(replicaA.baseUrl, 'GET', '/v1/users/me', undefined, as)).status, 200);
      // Before any sync B knows nothing of A's calls (the overshoot the local allowance bounds).
      assert.equal((await request(replicaB.baseUrl, 'POST', '/v1/auth/login', login)).status, 200);
      assert.equal((await request(replicaB.baseUrl, 'GET', '/v1/users/me', undefined, as)).status, 200);
      await meterA.sync();
      await meterB.sync();
      await meterA.sync();
      assert429(await request(replicaA.baseUrl, 'POST', '/v1/auth/login', login), '/v1/auth/login');
      assert429(await request(replicaA.baseUrl, 'GET', '/v1/users/me', undefined, as), '/v1/users/me');
      assert429(await request(replicaB.baseUrl, 'POST', '/v1/auth/login', login), '/v1/auth/login');
    } finally {
      await replicaA.close();
      await replicaB.close();
    }
  });

  it('caps alarm back-tests per account and hour on a line of their own, the kinds together, and gives failed ones back', async () => {
    const running = await appWith({ backtestsPerAccountPerHour: 2 });
    app = running;
    const owner = { 'x-test-user': 'u1:API_USER:acc-1' };
    const window = { from: 1_795_000_000_000, to: 1_795_100_000_000 };
    const point = { recipientId: 'r', boundary: { point: { lng: 32.86, lat: 39.93 }, radius: 5_000 }, filter: { lightning: {} }, ...window };
    const geometry = { recipientId: 'r', boundary: { cityId: 6 }, filter: { lightning: {} }, ...window };
    const post = (path: string, body: unknown, who: Record<string, string> = owner) => request(running.baseUrl, 'POST', path, body, who);
    assert.equal((await post('/v1/alarms/points/backtest', point)).status, 200);
    assert.equal((await post('/v1/alarms/points/backtest', { ...point, from: 'yesterday' })).status, 400, 'refused, and given back');
    assert.equal((await post('/v1/alarms/geometries/backtest', geometry)).status, 200, 'the second, of another kind');
    const third = await post('/v1/alarms/points/backtest', point);
    assert429(third, '/v1/alarms/points/backtest');
    assert.ok(Number(third.headers.get('retry-after')) > 60, 'until the next clock hour');
    assert.equal((await post('/v1/alarms/points/backtest', point, { 'x-test-user': 'u2:API_USER:acc-2' })).status, 200, 'another account has its own');
    assert.equal((await post('/v1/alarms/points/backtest', point, { 'x-test-user': 'u3:POWER_USER:acc-1' })).status, 429, 'per account, not per user');
    const registrationId = '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c';
    assert.equal(
      (await request(running.baseUrl, 'GET', `/v1/alarms/points/get-by-id/${registrationId}`, undefined, owner)).status,
      200,
      'other alarm operations are not on it',
    );
  });

  it('turns every limit off at 0', async () => {
    app = await appWith({});
    for (let i = 0; i < 20; i++) assert.equal((await request(app.baseUrl, 'POST', '/v1/auth/login', login)).status, 200);
  });
});
