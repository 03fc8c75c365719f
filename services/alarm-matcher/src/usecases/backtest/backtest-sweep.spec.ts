import assert from 'node:assert/strict';
import type { ForecastRegistration } from '../../domain/registration.js';
import { pointRegistration } from '../../test-support/fixtures.js';
import { sweepPlan } from './backtest-sweep.js';

const forecast: ForecastRegistration = {
  registrationId: 'f',
  accountId: 'acc',
  recipientId: 'rcp',
  createdAtMs: 0,
  updatedAtMs: 0,
  version: 1,
  warnings: [],
  kind: 'FORECAST',
  boundary: { type: 'POINT', point: { lng: 32.85, lat: 39.92 } },
  filter: { coldTemperatureThreshold: 'COLD_SNAP', windGustThreshold: 'GALE' },
  forecastDays: 1,
  delivery: ['MORNING'],
  resolved: { cityId: 6, cityName: 'Ankara', districtId: 1231, districtName: 'Çankaya' },
};

describe('back-test sweep plan', () => {
  it('sweeps the lowest intensity of a precipitation filter as "this level and above", weakest first', () => {
    const plan = sweepPlan(pointRegistration(32.85, 39.92, 5_000, { precipitation: { intensities: ['VERY_HEAVY', 'MODERATE'] } }))!;
    assert.equal(plan.field, 'filter.precipitation.intensities');
    assert.equal(plan.current, 'MODERATE');
    assert.deepEqual(
      plan.candidates.map((c) => c.value),
      ['DRIZZLE', 'LIGHT', 'MODERATE', 'HEAVY', 'VERY_HEAVY', 'EXTREME'],
    );
    const heavy = plan.candidates[3]!.registration;
    assert.deepEqual(heavy.kind !== 'FORECAST' && heavy.filter.precipitation?.intensities, ['HEAVY', 'VERY_HEAVY', 'EXTREME']);
  });

  it('sweeps the first forecast threshold of the filter over the names of the table, the rest unchanged', () => {
    const plan = sweepPlan(forecast)!;
    assert.equal(plan.field, 'filter.windGustThreshold');
    assert.equal(plan.current, 'GALE');
    assert.deepEqual(
      plan.candidates.map((c) => c.value),
      ['STRONG_WIND', 'GALE', 'STRONG_GALE', 'STORM', 'VIOLENT_STORM', 'HURRICANE'],
    );
    assert.deepEqual(plan.candidates[0]!.registration.filter, { coldTemperatureThreshold: 'COLD_SNAP', windGustThreshold: 'STRONG_WIND' });
  });

  it('prefers lightning, then thunderstorm, and sweeps nothing for a filter without a threshold', () => {
    assert.equal(sweepPlan(pointRegistration(32.85, 39.92, 5_000, { lightning: {}, thunderstorm: {} }))?.field, 'filter.lightning.peakCurrent');
    assert.equal(sweepPlan(pointRegistration(32.85, 39.92, 5_000, { thunderstorm: {} }))?.current, 'LOW');
    assert.equal(sweepPlan({ ...forecast, filter: {} }), undefined);
  });
});
