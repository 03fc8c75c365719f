import assert from 'node:assert/strict';
import { breaches, resolveThreshold, worse } from './forecast-thresholds.js';
import { validateForecastFilter } from './forecast-filter.js';

// The table's own checks are in @stormhook/webhooks (forecast-thresholds.spec.ts), its owner.
describe('forecast thresholds in the matcher', () => {
  it('breaches at the threshold itself, for both directions', () => {
    const gust = resolveThreshold('windGustThreshold', 'STRONG_WIND')!;
    assert.equal(breaches(gust, 50), true);
    assert.equal(breaches(gust, 49.99), false);
    const cold = resolveThreshold('coldTemperatureThreshold', 'COLD_SNAP')!;
    assert.equal(breaches(cold, -5), true);
    assert.equal(breaches(cold, -4.99), false);
    assert.equal(breaches(cold, Number.NaN), false);
  });

  it('keeps the value closer to breaching', () => {
    assert.equal(worse('>=', 3, 7), 7);
    assert.equal(worse('<=', 3, 7), 3);
  });

  it('accepts table names in any case and refuses others listing the values with their units', () => {
    const okFilter = validateForecastFilter({ windGustThreshold: 'strong_wind', precipitationThreshold: '' });
    assert.ok(okFilter.ok);
    assert.deepEqual(okFilter.value.value, { windGustThreshold: 'STRONG_WIND' });
    const bad = validateForecastFilter({ snowFallThreshold: 'BLIZZARD' });
    assert.ok(!bad.ok && bad.error.kind === 'validation');
    assert.equal(bad.error.field, 'filter.snowFallThreshold');
    assert.match(bad.error.message, /LIGHT \(>= 1 cm\)/);
    const none = validateForecastFilter({});
    assert.ok(none.ok);
    assert.deepEqual(none.value.warnings, ['filter sets no threshold: this forecast alarm never triggers']);
  });
});
