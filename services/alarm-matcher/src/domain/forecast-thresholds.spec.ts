import assert from 'node:assert/strict';
import { allowedNames, breaches, FORECAST_THRESHOLDS, resolveThreshold } from './forecast-thresholds.js';
import { FORECAST_FILTER_FIELDS } from './registration.js';
import { validateForecastFilter } from './forecast-filter.js';

describe('forecast threshold table', () => {
  it('holds the contract example of every filter field', () => {
    assert.equal(resolveThreshold('precipitationThreshold', 'MODERATE')?.value, 10);
    assert.equal(resolveThreshold('snowFallThreshold', 'LIGHT')?.value, 1);
    assert.equal(resolveThreshold('windGustThreshold', 'STRONG_WIND')?.value, 50);
    assert.equal(resolveThreshold('hotTemperatureThreshold', 'HOT_SNAP')?.value, 35);
    assert.equal(resolveThreshold('coldTemperatureThreshold', 'COLD_SNAP')?.value, -5);
  });

  it('names each metric with the unit of the forecast payload', () => {
    const units = Object.fromEntries(FORECAST_FILTER_FIELDS.map((f) => [FORECAST_THRESHOLDS[f].metric, FORECAST_THRESHOLDS[f].unit]));
    assert.deepEqual(units, { PRECIPITATION: 'mm', SNOWFALL: 'cm', WIND_GUSTS_MAX: 'km/h', TEMPERATURE_MAX: '°C', TEMPERATURE_MIN: '°C' });
  });

  it('orders every scale by rising severity in the direction of its comparison', () => {
    for (const field of FORECAST_FILTER_FIELDS) {
      const { values, comparison } = FORECAST_THRESHOLDS[field];
      for (let i = 1; i < values.length; i++) {
        const [, previous] = values[i - 1]!;
        const [, current] = values[i]!;
        assert.ok(comparison === '>=' ? current > previous : current < previous, `${field} is not ordered at ${values[i]![0]}`);
      }
      assert.equal(new Set(allowedNames(field)).size, values.length, `${field} repeats a name`);
    }
  });

  it('breaches at the threshold itself, for both directions', () => {
    const gust = resolveThreshold('windGustThreshold', 'STRONG_WIND')!;
    assert.equal(breaches(gust, 50), true);
    assert.equal(breaches(gust, 49.99), false);
    const cold = resolveThreshold('coldTemperatureThreshold', 'COLD_SNAP')!;
    assert.equal(breaches(cold, -5), true);
    assert.equal(breaches(cold, -4.99), false);
    assert.equal(breaches(cold, Number.NaN), false);
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
