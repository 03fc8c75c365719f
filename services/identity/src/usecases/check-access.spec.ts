import assert from 'node:assert/strict';
import type { Account } from '../domain/account.js';
import { type Principal, type ResolvedLocation } from '@stormhook/access';
import { defaultSubscription } from '../domain/plan-defaults.js';
import type { Subscription } from '../domain/subscription.js';
import type { GeoResolver } from '../ports/geo-resolver.js';
import { AccessSnapshots, CheckAccess } from './check-access.js';

const now = new Date('2025-06-01T12:00:00Z');
const userId = '11111111-1111-4111-8111-111111111111';
const accountId = '22222222-2222-4222-8222-222222222222';

function account(subscription: Subscription): Account {
  return {
    id: accountId,
    userId,
    type: 'ORGANIZATION',
    subscriptionPlan: subscription.plan,
    subscription,
    mobilePhoneNumberVerified: false,
    createdAt: now,
    updatedAt: now,
  };
}

/** Fake geo: Ankara and İstanbul are in TUR, Lefkoşa in CTR, anything else is nowhere. */
class FakeGeo implements GeoResolver {
  calls = 0;
  async resolve(point: { lat: number; lng: number }): Promise<ResolvedLocation | undefined> {
    this.calls++;
    if (point.lat === 39.92 && point.lng === 32.85) return { country: 'TUR', region: 'Ankara' };
    if (point.lat === 41.01 && point.lng === 28.97) return { country: 'TUR', region: 'İstanbul' };
    if (point.lat === 35.18 && point.lng === 33.36) return { country: 'CTR', region: 'Lefkoşa' };
    if (point.lat === 37.98 && point.lng === 23.72) return { country: 'GRC', region: 'Attica' };
    return undefined;
  }
}

function setup(subscription: Subscription | undefined) {
  const accounts = new Map(subscription ? [[accountId, account(subscription)]] : []);
  const geo = new FakeGeo();
  const check = new CheckAccess({
    accounts: {
      findById: async (id) => accounts.get(id),
      findByUserId: async (uid) => [...accounts.values()].find((a) => a.userId === uid),
    },
    geo,
    clock: { now: () => now },
  });
  return { check, geo };
}

const apiUser: Principal = { userId, accountId, role: 'API_USER', username: 'bot@example.com', via: 'api-key' };
const ankara = { lat: 39.92, lng: 32.85 };
const istanbul = { lat: 41.01, lng: 28.97 };

describe('CheckAccess', () => {
  it('allows a subscribed API_USER and hands the gateway the limit to count', async () => {
    const { check } = setup(defaultSubscription('BASIC_MONTHLY', now));
    const decision = await check.checkAccess(apiUser, 'getThunderstormPage');
    assert.deepEqual(decision, {
      decision: 'allow',
      service: 'THUNDERSTORM',
      quota: true,
      limit: { limit: 10_000, recurrence: 'MONTHLY', interval: 1 },
      window: { start: new Date('2025-06-01T00:00:00Z'), end: new Date('2025-07-01T00:00:00Z') },
      accountId,
      geographicBoundaries: [{ country: 'TUR' }, { country: 'CTR' }],
    });
  });

  it('answers 401 without a principal, and lets public operations through', async () => {
    const { check } = setup(defaultSubscription('BASIC_MONTHLY', now));
    assert.deepEqual(await check.checkAccess(undefined, 'getPrecipitationPage'), {
      decision: 'deny',
      status: 401,
      reason: 'unauthenticated',
      message: 'Authentication is required',
    });
    assert.equal((await check.checkAccess(undefined, 'login')).decision, 'allow');
  });

  it('answers 403 when the role is below the operation minimum', async () => {
    const { check } = setup(defaultSubscription('PREMIUM_MONTHLY', now));
    const guest: Principal = { ...apiUser, role: 'GUEST', via: 'access-token' };
    const data = await check.checkAccess(guest, 'getCurrentForecast');
    assert.ok(data.decision === 'deny' && data.status === 403 && data.reason === 'role');
    const page = await check.checkAccess({ ...apiUser, role: 'POWER_USER' }, 'getUserPage');
    assert.ok(page.decision === 'deny' && page.reason === 'role' && /ADMIN/.test(page.message));
    assert.equal((await check.checkAccess({ ...apiUser, role: 'POWER_USER' }, 'getUser')).decision, 'allow');
    assert.equal((await check.checkAccess({ ...apiUser, role: 'STANDARD_USER' }, 'getUser')).decision, 'deny');
  });

  it('answers 402 for NONE, for an expired plan and for a caller without an account', async () => {
    const expected = { decision: 'deny', status: 402, reason: 'subscription-required', message: 'You Need To Renew Your Subscription or Purchase New One' };
    assert.deepEqual(await setup(defaultSubscription('NONE', now)).check.checkAccess(apiUser, 'getThunderstormPage'), expected);
    const lapsed = { ...defaultSubscription('PREMIUM_MONTHLY', now), expiresAt: new Date(now.getTime() - 1) };
    assert.deepEqual(await setup(lapsed).check.checkAccess(apiUser, 'getThunderstormPage'), expected);
    assert.deepEqual(await setup(undefined).check.checkAccess(apiUser, 'getThunderstormPage'), expected);
    // Non-metered operations do not need a subscription.
    assert.equal((await setup(undefined).check.checkAccess(apiUser, 'getCurrentUser')).decision, 'allow');
  });

  it('finds the account by user when the token predates the account', async () => {
    const { check } = setup(defaultSubscription('TRIAL', now));
    const { accountId: _omitted, ...withoutAccount } = apiUser;
    const decision = await check.checkAccess(withoutAccount, 'getPointAlarmPage');
    assert.ok(decision.decision === 'allow' && decision.accountId === accountId && decision.service === 'ALARM_POINT');
  });

  it('answers 403 "No Subscription Found" when the plan lacks the service', async () => {
    const { check } = setup(defaultSubscription('BASIC_MONTHLY', now)); // basic: no forecast alarms
    assert.deepEqual(await check.checkAccess(apiUser, 'registerForecastAlarm'), {
      decision: 'deny',
      status: 403,
      reason: 'no-subscription-for-endpoint',
      message: 'No Subscription Found For This Service Endpoint',
    });
  });

  it('answers 403 with the filled-in location message outside the geography', async () => {
    const onlyAnkara: Subscription = { ...defaultSubscription('PREMIUM_MONTHLY', now), geographicBoundaries: [{ country: 'TUR', region: 'Ankara' }] };
    const { check } = setup(onlyAnkara);
    assert.equal((await check.checkAccess(apiUser, 'getCurrentForecast', ankara)).decision, 'allow');
    assert.deepEqual(await check.checkAccess(apiUser, 'getCurrentForecast', istanbul), {
      decision: 'deny',
      status: 403,
      reason: 'outside-geography',
      message: 'The Location You Are Querying [41.01, 28.97] Is Not Within The Geographic Boundaries Allowed In Your Subscription [Türkiye, Ankara]',
      location: istanbul,
      country: 'Türkiye',
      region: 'Ankara',
    });
    const nowhere = await check.checkAccess(apiUser, 'getCurrentForecast', { lat: 0, lng: 0 });
    assert.ok(nowhere.decision === 'deny' && nowhere.reason === 'outside-geography');
  });

  it('matches regions without case or Turkish diacritics and covers whole countries', async () => {
    const typed: Subscription = {
      ...defaultSubscription('PREMIUM_MONTHLY', now),
      geographicBoundaries: [{ country: 'TUR', region: 'ISTANBUL' }, { country: 'CTR' }],
    };
    const { check } = setup(typed);
    assert.equal((await check.checkAccess(apiUser, 'getCurrentForecast', istanbul)).decision, 'allow');
    assert.equal((await check.checkAccess(apiUser, 'getCurrentForecast', { lat: 35.18, lng: 33.36 })).decision, 'allow');
    const athens = await check.checkAccess(apiUser, 'getCurrentForecast', { lat: 37.98, lng: 23.72 });
    assert.ok(athens.decision === 'deny' && athens.message.endsWith('[Türkiye / Northern Cyprus, ISTANBUL / All Regions]'));
  });

  it('checks the subscription before asking geo, and lets ADMINs through unmetered', async () => {
    const { check, geo } = setup(defaultSubscription('NONE', now));
    assert.equal((await check.checkAccess(apiUser, 'getCurrentForecast', ankara)).decision, 'deny');
    assert.equal(geo.calls, 0);
    const admin: Principal = { ...apiUser, role: 'ADMIN', via: 'access-token' };
    assert.deepEqual(await check.checkAccess(admin, 'getCurrentForecast', { lat: 0, lng: 0 }), {
      decision: 'allow',
      service: 'FORECAST',
      quota: false,
      accountId,
    });
  });

  it('does not count deletions against the quota and denies unknown operations', async () => {
    const { check } = setup(defaultSubscription('PREMIUM_MONTHLY', now));
    const del = await check.checkAccess(apiUser, 'unregisterGeometryAlarm');
    assert.ok(del.decision === 'allow' && del.quota === false && del.service === 'ALARM_GEOMETRY');
    const unknown = await check.checkAccess(apiUser, 'dropDatabase');
    assert.ok(unknown.decision === 'deny' && unknown.reason === 'unknown-operation');
    assert.equal((await check.checkAccess(apiUser, 'toString')).decision, 'deny');
  });
});

describe('AccessSnapshots', () => {
  const user = {
    userId,
    username: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'L',
    locale: 'tr_TR',
    timezone: 'Europe/Istanbul',
    role: 'STANDARD_USER' as const,
    status: 'ACTIVE' as const,
    emailVerified: true,
    createdAt: now,
    updatedAt: now,
  };
  const snapshots = (stored: typeof user & { accessTokensValidFrom?: Date }) =>
    new AccessSnapshots({ users: { findById: async () => stored }, accounts: { findByUserId: async () => undefined, findById: async () => undefined } });

  it('hands the gateway the instant access tokens count from, so a logout reaches it', async () => {
    const validFrom = new Date(now.getTime() + 1_000);
    assert.deepEqual((await snapshots({ ...user, accessTokensValidFrom: validFrom }).snapshotOf(userId))?.accessTokensValidFrom, validFrom);
    assert.equal((await snapshots(user).snapshotOf(userId))?.accessTokensValidFrom, undefined);
  });
});
