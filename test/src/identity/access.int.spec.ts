import assert from 'node:assert/strict';
import type { RequestHandler } from 'express';
import { accessOf, ROUTES } from '@stormhook/gateway';
import { errorBody, PLACES, startIdentityStack, type Answer, type IdentityStack } from './support.js';

const ok: RequestHandler = (req, res) => {
  res.json({ ok: true, boundaries: accessOf(req)?.geographicBoundaries ?? [] });
};
const failing: RequestHandler = () => {
  throw new Error('backing service exploded');
};

/** Stand-ins for operations whose services this test does not start; guards and metering are the real ones. */
const handlers = {
  getCurrentForecast: ok,
  getPrecipitationPage: ok,
  getThunderstormPage: failing,
  getGeometryByEventIds: ok,
  registerPointAlarm: ok,
  registerGeometryAlarm: ok,
  unregisterGeometryAlarm: ok,
  listGeometryAlarmCities: ok,
};

const MESSAGES = {
  payment: 'You Need To Renew Your Subscription or Purchase New One',
  noSubscription: 'No Subscription Found For This Service Endpoint',
  limit: 'Your Subscription Limits For This Service is Exceeded',
};

const forecastAt = (point: { lat: number; lng: number }) => ({ location: { lat: point.lat, lng: point.lng }, metrics: ['TEMPERATURE'], forecastDays: 1 });

describe('access enforcement at the gateway (interface.md section 7)', function () {
  this.timeout(60_000);
  let stack: IdentityStack;

  before(async () => {
    stack = await startIdentityStack(handlers);
  });
  after(async () => {
    await stack?.stop();
  });

  /** An API_USER whose account an ADMIN gave a CUSTOM plan with these details. */
  async function subscriber(details: unknown[], expiration: number | null = Date.now() + 30 * 86_400_000) {
    const u = await stack.user('API_USER', 'NONE');
    const set = await stack.call('POST', '/v1/accounts/update-subscription', {
      token: await stack.adminToken(),
      body: { accountId: u.accountId, subscriptionPlan: 'CUSTOM', planDetails: { subscriptionExpirationEpoch: expiration, details } },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    return u;
  }

  const daily = (limits: Record<string, number>, boundary: Record<string, string> = { country: 'TUR' }) => ({
    limitResetRecurrence: { limitType: 'DAILY', limitResetInterval: 1 },
    geoBoundary: boundary,
    apiServiceLimits: Object.entries(limits).map(([serviceName, maxInvocation]) => ({ version: 'v1', serviceName, maxInvocation })),
  });

  it('answers 401 with an ErrorResponse on every authenticated operation without credentials', async () => {
    const authenticated = ROUTES.filter((r) => r.authenticated);
    assert.ok(authenticated.length >= 40);
    for (const route of authenticated) {
      const path = route.path.replace(/\{[^}]+\}/g, 'x');
      const answer = await stack.call(route.method.toUpperCase(), path, route.request.body ? { body: {} } : {});
      errorBody(answer, 401, path);
    }
    for (const route of ROUTES.filter((r) => !r.authenticated)) {
      const answer = await stack.call(route.method.toUpperCase(), route.path, route.request.body ? { body: {} } : {});
      assert.notEqual(answer.status, 401, `${route.operationId} is open`);
    }
  });

  it('checks roles: GUEST cannot read data, only POWER_USER and above read other users, only ADMIN lists and creates', async () => {
    const guest = await stack.user('GUEST', 'PREMIUM_MONTHLY');
    const forecast = await stack.call('POST', '/v1/forecasts/current', { token: guest.token, body: forecastAt(PLACES.ankara) });
    assert.equal(errorBody(forecast, 403, '/v1/forecasts/current').message, 'This operation needs role API_USER or above');

    const standard = await stack.user('STANDARD_USER');
    const power = await stack.user('POWER_USER');
    errorBody(await stack.call('GET', `/v1/users/${power.userId}`, { token: standard.token }), 403, `/v1/users/${power.userId}`);
    assert.equal((await stack.call('GET', `/v1/users/${standard.userId}`, { token: power.token })).status, 200);
    errorBody(await stack.call('POST', '/v1/users/page', { token: power.token, body: {} }), 403, '/v1/users/page');
    errorBody(
      await stack.call('POST', '/v1/users/create', {
        token: power.token,
        body: { username: 'x@example.com', firstName: 'X', lastName: 'Y', role: 'GUEST', password: 'password-123' },
      }),
      403,
      '/v1/users/create',
    );
    errorBody(
      await stack.call('POST', '/v1/accounts/update-subscription', { token: power.token, body: { accountId: guest.accountId, subscriptionPlan: 'CUSTOM' } }),
      403,
      '/v1/accounts/update-subscription',
    );
  });

  it('answers 402 for plan NONE, an expired plan and a caller without an account', async () => {
    const none = await stack.user('API_USER', 'NONE');
    assert.equal(
      errorBody(await stack.call('POST', '/v1/precipitations/page', { token: none.token, body: {} }), 402, '/v1/precipitations/page').message,
      MESSAGES.payment,
    );
    const lapsed = await subscriber([daily({ precipitations: 10 })], Date.now() - 1000);
    assert.equal(
      errorBody(await stack.call('POST', '/v1/precipitations/page', { token: lapsed.token, body: {} }), 402, '/v1/precipitations/page').message,
      MESSAGES.payment,
    );
    const noAccount = await stack.user('API_USER');
    assert.equal(
      errorBody(await stack.call('GET', '/v1/alarms/geometries/cities', { token: noAccount.token }), 402, '/v1/alarms/geometries/cities').message,
      MESSAGES.payment,
    );
  });

  it('answers 403 "No Subscription Found" for an endpoint outside the plan', async () => {
    const basic = await stack.user('API_USER', 'TRIAL');
    const token = await stack.adminToken();
    assert.equal(
      (await stack.call('POST', '/v1/accounts/update-subscription', { token, body: { accountId: basic.accountId, subscriptionPlan: 'BASIC_MONTHLY' } })).status,
      200,
    );
    const point = await stack.call('POST', '/v1/alarms/points/register', {
      token: basic.token,
      body: { recipientId: 'r1', boundary: { point: { lat: PLACES.ankara.lat, lng: PLACES.ankara.lng }, radius: 1000 } },
    });
    assert.equal(errorBody(point, 403, '/v1/alarms/points/register').message, MESSAGES.noSubscription);
    // The plan's own services pass.
    const forecast = await stack.call('POST', '/v1/forecasts/current', { token: basic.token, body: forecastAt(PLACES.istanbul) });
    assert.equal(forecast.status, 200, JSON.stringify(forecast.body));
  });

  it('answers 403 with [lat, lng] and [Country, Region] for a place outside the subscription', async () => {
    const ankaraOnly = await subscriber([daily({ forecasts: 100, 'alarm-points': 100, precipitations: 100 }, { country: 'TUR', region: 'Ankara' })]);
    const inside = await stack.call('POST', '/v1/forecasts/current', { token: ankaraOnly.token, body: forecastAt(PLACES.ankara) });
    assert.equal(inside.status, 200);
    assert.deepEqual(inside.body['boundaries'], [{ country: 'TUR', region: 'Ankara' }]);
    const outside = await stack.call('POST', '/v1/forecasts/current', { token: ankaraOnly.token, body: forecastAt(PLACES.istanbul) });
    assert.equal(
      errorBody(outside, 403, '/v1/forecasts/current').message,
      'The Location You Are Querying [41.01, 28.97] Is Not Within The Geographic Boundaries Allowed In Your Subscription [Türkiye, Ankara]',
    );
    const alarm = await stack.call('POST', '/v1/alarms/points/register', {
      token: ankaraOnly.token,
      body: { boundary: { point: { lat: PLACES.lefkosa.lat, lng: PLACES.lefkosa.lng }, radius: 500 } },
    });
    assert.match(errorBody(alarm, 403, '/v1/alarms/points/register').message, /^The Location You Are Querying \[35\.18, 33\.36\] .* \[Türkiye, Ankara\]$/);
    const crop = await stack.call('POST', '/v1/precipitations/geometry', {
      token: ankaraOnly.token,
      body: { eventIds: [], center: { lat: PLACES.istanbul.lat, lng: PLACES.istanbul.lng }, radius: 1000 },
    });
    assert.match(errorBody(crop, 403, '/v1/precipitations/geometry').message, /\[41\.01, 28\.97\]/);
    // A malformed point is a validation error naming the field, not a location refusal.
    const malformed = await stack.call('POST', '/v1/forecasts/current', {
      token: ankaraOnly.token,
      body: { ...forecastAt(PLACES.ankara), location: { lat: 95, lng: 32 } },
    });
    assert.match(errorBody(malformed, 400, '/v1/forecasts/current').message, /location/);
  });

  function quota(answer: Answer) {
    return {
      limit: answer.headers.get('ratelimit-limit'),
      remaining: answer.headers.get('ratelimit-remaining'),
      reset: Number(answer.headers.get('ratelimit-reset')),
      policy: answer.headers.get('ratelimit-policy'),
    };
  }

  it('counts metered calls, shows the quota on every answer, and answers 429 with Retry-After once spent', async () => {
    const u = await subscriber([daily({ forecasts: 3, thunderstorms: 5 })]);
    const call = () => stack.call('POST', '/v1/forecasts/current', { token: u.token, body: forecastAt(PLACES.ankara) });
    const secondsToMidnight = Math.ceil((Math.floor(Date.now() / 86_400_000 + 1) * 86_400_000 - Date.now()) / 1000);

    const first = await call();
    assert.equal(first.status, 200);
    assert.deepEqual({ ...quota(first), reset: undefined }, { limit: '3', remaining: '2', reset: undefined, policy: '3;w=86400' });
    assert.ok(Math.abs(quota(first).reset - secondsToMidnight) <= 2, `reset ${quota(first).reset} vs ${secondsToMidnight}`);

    // A validation error and a failure of the operation are not counted, and still carry the quota.
    const invalid = await stack.call('POST', '/v1/forecasts/current', { token: u.token, body: { ...forecastAt(PLACES.ankara), forecastDays: 99 } });
    assert.match(errorBody(invalid, 400, '/v1/forecasts/current').message, /forecastDays/);
    assert.equal(quota(invalid).remaining, '1');

    const second = await call();
    assert.equal(quota(second).remaining, '1', 'the 400 was given back');
    const third = await call();
    assert.equal(third.status, 200);
    assert.equal(quota(third).remaining, '0');

    const spent = await call();
    assert.equal(errorBody(spent, 429, '/v1/forecasts/current').message, MESSAGES.limit);
    assert.equal(quota(spent).remaining, '0');
    assert.equal(quota(spent).limit, '3');
    const retryAfter = Number(spent.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && Math.abs(retryAfter - secondsToMidnight) <= 2, `Retry-After ${retryAfter}`);

    // Other services keep their own counters; a failing operation (500) gives its unit back.
    for (let i = 0; i < 3; i++) {
      const broken = await stack.call('POST', '/v1/thunderstorms/page', {
        token: u.token,
        body: { backwardInterval: 60, endTimeEpoch: 0, pageNumber: 0, pageSize: 10 },
      });
      errorBody(broken, 500, '/v1/thunderstorms/page');
      assert.equal(quota(broken).remaining, '4', 'every failed call was counted, then given back');
    }
  });

  it('meters API-key callers the same way, lets deletions through a spent quota, and does not meter ADMINs', async () => {
    const u = await subscriber([daily({ 'alarm-geometries': 1 })]);
    const key = await stack.call('POST', '/v1/api-keys/create', { token: u.token, body: {} });
    const apiKey = String(key.body['apiKey']);
    const registration = {
      recipientId: 'r',
      boundary: { cityId: 6 },
      webhook: { accountId: u.accountId },
      filter: { precipitation: { intensities: ['LIGHT'] } },
    };
    const register = () => stack.call('POST', '/v1/alarms/geometries/register', { apiKey, body: registration });
    const first = await register();
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(quota(first).remaining, '0');
    errorBody(await register(), 429, '/v1/alarms/geometries/register');
    const removed = await stack.call('DELETE', '/v1/alarms/geometries/unregister/0b7e4c1d-2a3f-4e5d-9c8b-7a6f5e4d3c2b', { apiKey });
    assert.equal(removed.status, 200);
    assert.equal(removed.headers.get('ratelimit-remaining'), null, 'deletions are not metered');

    const admin = await stack.adminToken();
    const anywhere = await stack.call('POST', '/v1/forecasts/current', { token: admin, body: forecastAt({ lat: 0, lng: 0 }) });
    assert.equal(anywhere.status, 200);
    assert.equal(anywhere.headers.get('ratelimit-limit'), null);
  });

  it('never lets two concurrent bursts exceed the limit, and gives back every unit it refused', async () => {
    const u = await subscriber([daily({ precipitations: 5 })]);
    const page = { backwardInterval: 600, endTimeEpoch: Date.now(), pageNumber: 0, pageSize: 10 };
    const call = () => stack.call('POST', '/v1/precipitations/page', { token: u.token, body: page });
    const burst = await Promise.all(Array.from({ length: 12 }, call));
    const allowed = burst.filter((a) => a.status === 200).length;
    // One instance checks one counter at a time, so a burst is served up to the limit exactly.
    assert.equal(allowed, 5, `${allowed} of 12 allowed`);
    assert.deepEqual(
      burst.filter((a) => a.status !== 200).map((a) => a.status),
      Array(7).fill(429),
    );
    // Refused calls gave their unit back: sequential calls use up exactly what is left.
    let more = 0;
    while ((await call()).status === 200) more++;
    assert.equal(allowed + more, 5);
  });
});
