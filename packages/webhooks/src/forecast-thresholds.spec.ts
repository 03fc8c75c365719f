import assert from 'node:assert/strict';
import { allowedNames, FORECAST_FILTER_FIELDS, FORECAST_THRESHOLDS, resolveThreshold, THRESHOLD_METRICS } from './forecast-thresholds.js';

describe('forecast threshold table', () => {
  it('holds the contract example of every filter field', () => {
    assert.equal(resolveThreshold('precipitationThreshold', 'MODERATE')?.value, 10);
    assert.equal(resolveThreshold('snowFallThreshold', 'LIGHT')?.value, 1);
    assert.equal(resolveThreshold('windGustThreshold', 'STRONG_WIND')?.value, 50);
    assert.equal(resolveThreshold('hotTemperatureThreshold', 'HOT_SNAP')?.value, 35);
    assert.equal(resolveThreshold('coldTemperatureThreshold', 'COLD_SNAP')?.value, -5);
    assert.equal(resolveThreshold('coldTemperatureThreshold', 'HOT_SNAP'), undefined);
  });

  it('names each metric with the unit of the forecast payload, one scale per metric', () => {
    const units = Object.fromEntries(FORECAST_FILTER_FIELDS.map((f) => [FORECAST_THRESHOLDS[f].metric, FORECAST_THRESHOLDS[f].unit]));
    assert.deepEqual(units, { PRECIPITATION: 'mm', SNOWFALL: 'cm', WIND_GUSTS_MAX: 'km/h', TEMPERATURE_MAX: '°C', TEMPERATURE_MIN: '°C' });
    assert.deepEqual(
      FORECAST_FILTER_FIELDS.map((f) => FORECAST_THRESHOLDS[f].metric),
      [...THRESHOLD_METRICS],
    );
  });

  it('keys every scale by its own field', () => {
    assert.deepEqual(Object.keys(FORECAST_THRESHOLDS), [...FORECAST_FILTER_FIELDS]);
    for (const field of FORECAST_FILTER_FIELDS) assert.equal(FORECAST_THRESHOLDS[field].field, field);
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
});
