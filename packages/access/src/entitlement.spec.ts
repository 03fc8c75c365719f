import assert from 'node:assert/strict';
import { decideEntitlement, type EntitlementQuestion } from './entitlement.js';
import type { AccessSnapshot } from './snapshot.js';
import type { Subscription } from './subscription.js';

const NOW = new Date('2026-11-28T04:00:00Z');
const istanbul: EntitlementQuestion = { service: 'ALARM_GEOMETRY', location: { country: 'TUR', region: 'İstanbul' } };

function snapshot(over: Partial<AccessSnapshot> = {}, subscription: Partial<Subscription> = {}): AccessSnapshot {
  return {
    userId: 'usr-1',
    username: 'owner@example.com',
    role: 'API_USER',
    status: 'ACTIVE',
    account: {
      id: 'acc-1',
      userId: 'usr-1',
      subscription: {
        plan: 'PREMIUM_MONTHLY',
        expiresAt: new Date(NOW.getTime() + 86_400_000),
        geographicBoundaries: [{ country: 'TUR', region: 'Istanbul' }],
        limits: { ALARM_GEOMETRY: { limit: 10, recurrence: 'MONTHLY', interval: 1 } },
        ...subscription,
      },
    },
    ...over,
  };
}

describe('decideEntitlement', () => {
  it('entitles an active owner whose live plan covers the service and the area', () => {
    assert.deepEqual(decideEntitlement(snapshot(), istanbul, NOW), { entitled: true });
  });

  it('suspends when the owner is unknown to identity', () => {
    assert.deepEqual(decideEntitlement(undefined, istanbul, NOW), { entitled: false, reason: 'OWNER_NOT_FOUND' });
  });

  for (const [status, reason] of [
    ['BLOCKED', 'USER_BLOCKED'],
    ['DELETED', 'USER_DELETED'],
    ['INACTIVE', 'USER_INACTIVE'],
    ['EXPIRED', 'USER_EXPIRED'],
  ] as const) {
    it(`suspends when the owner is ${status}, even an ADMIN`, () => {
      assert.deepEqual(decideEntitlement(snapshot({ status }), istanbul, NOW), { entitled: false, reason });
      assert.deepEqual(decideEntitlement(snapshot({ status, role: 'ADMIN' }), istanbul, NOW), { entitled: false, reason });
    });
  }

  it('suspends without an account or with plan NONE', () => {
    const { account: _none, ...noAccount } = snapshot();
    assert.deepEqual(decideEntitlement(noAccount, istanbul, NOW), { entitled: false, reason: 'SUBSCRIPTION_REQUIRED' });
    assert.deepEqual(decideEntitlement(snapshot({}, { plan: 'NONE' }), istanbul, NOW), { entitled: false, reason: 'SUBSCRIPTION_REQUIRED' });
  });

  it('suspends by time alone once the plan expires, since the expiry, and not a moment before', () => {
    const expiresAt = new Date(NOW.getTime() + 60_000);
    const owner = snapshot({}, { expiresAt });
    assert.deepEqual(decideEntitlement(owner, istanbul, new Date(expiresAt.getTime() - 1)), { entitled: true });
    assert.deepEqual(decideEntitlement(owner, istanbul, expiresAt), { entitled: false, reason: 'SUBSCRIPTION_EXPIRED', sinceMs: expiresAt.getTime() });
  });

  it('never expires an open-ended plan', () => {
    const { expiresAt: _open, ...open } = snapshot().account!.subscription;
    const owner = snapshot();
    owner.account = { ...owner.account!, subscription: open };
    assert.deepEqual(decideEntitlement(owner, istanbul, new Date('2100-01-01T00:00:00Z')), { entitled: true });
  });

  it('suspends when the plan no longer has the registration kind', () => {
    assert.deepEqual(decideEntitlement(snapshot(), { ...istanbul, service: 'ALARM_POINT' }, NOW), { entitled: false, reason: 'NO_SUBSCRIPTION_FOR_SERVICE' });
  });

  it('suspends a registration outside a narrowed plan and resumes it when the plan covers it again', () => {
    const narrowed = snapshot({}, { geographicBoundaries: [{ country: 'TUR', region: 'Ankara' }] });
    assert.deepEqual(decideEntitlement(narrowed, istanbul, NOW), { entitled: false, reason: 'OUTSIDE_GEOGRAPHIC_BOUNDARIES' });
    const widened = snapshot({}, { geographicBoundaries: [{ country: 'TUR' }] });
    assert.deepEqual(decideEntitlement(widened, istanbul, NOW), { entitled: true });
  });

  it('leaves the geography unjudged while the area is not resolved', () => {
    const narrowed = snapshot({}, { geographicBoundaries: [{ country: 'TUR', region: 'Ankara' }] });
    assert.deepEqual(decideEntitlement(narrowed, { service: 'ALARM_GEOMETRY' }, NOW), { entitled: true });
  });

  it('lets an ACTIVE ADMIN owner pass the subscription checks, as decideAccess does', () => {
    assert.deepEqual(decideEntitlement(snapshot({ role: 'ADMIN' }, { plan: 'NONE', geographicBoundaries: [] }), istanbul, NOW), { entitled: true });
  });
});
