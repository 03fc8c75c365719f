import assert from 'node:assert/strict';
import { decideAccess, decisionResponse, type AccessAccount, type Principal, type Role } from '@stormhook/access';
import { queriedAreaRef, queriedPoint } from './auth-location.js';

const ACCOUNT = '0b7e4c1d-2a3f-4e5d-9c8b-7a6f5e4d3c2b';
const NOW = new Date('2026-11-28T12:00:00Z');
const ANKARA = { lng: 32.8597, lat: 39.9334 };
const ISTANBUL = { lng: 28.97, lat: 41.01 };
const limit = { limit: 1_000, recurrence: 'MONTHLY', interval: 1 } as const;

function caller(role: Role): Principal {
  return { userId: 'u1', accountId: ACCOUNT, role, username: 'u1@example.com', via: 'access-token' };
}

/** A live plan with point and geometry alarms (no forecast alarms) in Ankara only. */
function account(change: (a: AccessAccount) => void = () => undefined): AccessAccount {
  const a: AccessAccount = {
    id: ACCOUNT,
    userId: 'u1',
    subscription: {
      plan: 'PREMIUM_MONTHLY',
      geographicBoundaries: [{ country: 'TUR', region: 'Ankara' }],
      limits: { ALARM_POINT: limit, ALARM_GEOMETRY: limit },
    },
  };
  change(a);
  return a;
}

const decide = (role: Role, operationId: string, location?: { lat: number; lng: number }, plan = account()) =>
  decideAccess(caller(role), operationId, location, {
    account: () => plan,
    resolve: async (point) => (point.lat > 40.5 ? { country: 'TUR', region: 'İstanbul' } : { country: 'TUR', region: 'Ankara' }),
    now: NOW,
  });

describe('access to the alarm back-tests', () => {
  it("lets the roles that register the kind back-test it, on the plan's alarm kind, and no lower role", async () => {
    for (const role of ['API_USER', 'STANDARD_USER', 'POWER_USER'] as const) {
      const register = await decide(role, 'registerPointAlarm', ANKARA);
      const backtest = await decide(role, 'backtestPointAlarm', ANKARA);
      assert.equal(backtest.decision, register.decision, role);
      assert.equal(backtest.decision === 'allow' && backtest.service, 'ALARM_POINT');
    }
    const guest = await decide('GUEST', 'backtestPointAlarm', ANKARA);
    assert.equal(guest.decision === 'deny' && guest.status, 403);
    assert.equal((await decide('ADMIN', 'backtestGeometryAlarm')).decision, 'allow');
  });

  it('needs a live plan with the alarm kind, as registering does (402, 403)', async () => {
    const forecast = await decide('API_USER', 'backtestForecastAlarm', ANKARA);
    assert.equal(forecast.decision === 'deny' && forecast.reason, 'no-subscription-for-endpoint');
    const expired = await decide(
      'API_USER',
      'backtestGeometryAlarm',
      undefined,
      account((a) => (a.subscription.expiresAt = new Date('2026-11-01T00:00:00Z'))),
    );
    assert.equal(expired.decision === 'deny' && expired.status, 402);
  });

  it("refuses a place outside the plan's geography, read from the body as for registering", async () => {
    const body = { boundary: { point: ISTANBUL, radius: 10_000 }, from: 0, to: 1 };
    assert.deepEqual(queriedPoint('backtestPointAlarm', body), ISTANBUL);
    assert.deepEqual(queriedPoint('backtestForecastAlarm', { boundary: { type: 'POINT', point: ISTANBUL } }), ISTANBUL);
    assert.deepEqual(queriedAreaRef('backtestGeometryAlarm', { boundary: { cityId: 6, districtId: 1231 } }, {}), { level: 'district', id: 1231 });
    assert.deepEqual(queriedAreaRef('backtestForecastAlarm', { boundary: { type: 'ADMINISTRATIVE', cityId: 6, districtId: 1231 } }, {}), {
      level: 'district',
      id: 1231,
    });
    const outside = await decide('API_USER', 'backtestPointAlarm', queriedPoint('backtestPointAlarm', body));
    assert.equal(outside.decision === 'deny' && outside.reason, 'outside-geography');
  });

  it("does not count against the kind's invocation limit: its quota line is the gateway's hourly back-test allowance", async () => {
    const register = decisionResponse(await decide('API_USER', 'registerPointAlarm', ANKARA));
    const backtest = decisionResponse(await decide('API_USER', 'backtestPointAlarm', ANKARA));
    assert.equal(register.metered, true);
    assert.equal(backtest.allowed, true);
    assert.equal(backtest.metered, false);
    assert.equal(backtest.quota, null);
  });
});
