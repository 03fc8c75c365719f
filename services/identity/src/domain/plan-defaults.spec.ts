import assert from 'node:assert/strict';
import { DEFAULT_PLAN_TABLE, defaultSubscription, expiryOf, planTableWithOverrides } from './plan-defaults.js';
import { isSubscriptionActive } from './subscription.js';

describe('plan defaults', () => {
  const now = new Date('2025-01-31T10:00:00Z');

  it('gives every plan a row and NONE nothing at all', () => {
    const none = defaultSubscription('NONE', now);
    assert.deepEqual(none, { plan: 'NONE', geographicBoundaries: [], limits: {} });
    assert.equal(isSubscriptionActive(none, now), false);
    assert.equal(Object.keys(DEFAULT_PLAN_TABLE).length, 7);
  });

  it('counts months on the calendar, clamped to the month end', () => {
    assert.equal(expiryOf({ months: 1 }, now)?.toISOString(), '2025-02-28T10:00:00.000Z');
    assert.equal(expiryOf({ months: 12 }, new Date('2024-02-29T00:00:00Z'))?.toISOString(), '2025-02-28T00:00:00.000Z');
    assert.equal(expiryOf({ days: 14 }, now)?.toISOString(), '2025-02-14T10:00:00.000Z');
    assert.equal(expiryOf(undefined, now), undefined);
  });

  it('returns copies, so changing a subscription never changes the table', () => {
    const trial = defaultSubscription('TRIAL', now);
    trial.geographicBoundaries.push({ country: 'CTR', region: 'Girne' });
    const limit = trial.limits.FORECAST;
    assert.ok(limit);
    limit.limit = 1;
    assert.equal(defaultSubscription('TRIAL', now).limits.FORECAST?.limit, 100);
    assert.equal(defaultSubscription('TRIAL', now).geographicBoundaries.length, 2);
  });

  it('applies operator overrides row by row and names the bad path', () => {
    const table = planTableWithOverrides({
      TRIAL: { duration: { days: 30 }, geographicBoundaries: [{ country: 'TUR' }], limits: { FORECAST: { limit: 500, recurrence: 'DAILY' } } },
    });
    assert.ok(table.ok);
    const trial = defaultSubscription('TRIAL', now, table.value);
    assert.deepEqual(trial.limits, { FORECAST: { limit: 500, recurrence: 'DAILY', interval: 1 } });
    assert.equal(trial.expiresAt?.toISOString(), '2025-03-02T10:00:00.000Z');
    assert.deepEqual(table.value.PREMIUM_YEARLY, DEFAULT_PLAN_TABLE.PREMIUM_YEARLY);

    const bad = planTableWithOverrides({ TRIAL: { limits: { FORECAST: { limit: 5, recurrence: 'HOURLY' } } } });
    assert.ok(!bad.ok && bad.error.kind === 'validation' && bad.error.field === 'plans.TRIAL.limits.FORECAST.recurrence');
    const plan = planTableWithOverrides({ GOLD: {} });
    assert.ok(!plan.ok && plan.error.kind === 'validation' && plan.error.field === 'plans.GOLD');
  });
});
