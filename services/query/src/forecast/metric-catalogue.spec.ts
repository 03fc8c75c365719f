import assert from 'node:assert/strict';
import { enumNames, queryV1 } from '@stormhook/proto';
import { CURRENT_METRICS, DAILY_METRICS, HOURLY_METRICS, validFor } from './metric-catalogue.js';

// The metric names have their home in proto/ (forecast_metrics.proto); the gateway's request schema
// takes the same list. A name there that the catalogue cannot answer for any operation would pass the
// gateway and then be a warning everywhere, and a catalogue name missing there would be a 400.
describe('forecast metric catalogue', () => {
  const contract = enumNames(queryV1.ForecastMetricName, 'FORECAST_METRIC_NAME_');

  it('answers exactly the contract names, each for at least one operation', () => {
    const answered = new Set([...Object.keys(HOURLY_METRICS), ...Object.keys(DAILY_METRICS)]);
    assert.deepEqual([...answered].sort(), [...contract].sort());
  });

  it('answers every current metric hourly too, from a contract name', () => {
    assert.equal(CURRENT_METRICS.length, 10);
    for (const metric of CURRENT_METRICS) {
      assert.ok(contract.includes(metric), `${metric} is a contract name`);
      assert.ok(validFor('CURRENT', metric) && validFor('HOURLY', metric), `${metric} is answered now and hourly`);
    }
    assert.equal(validFor('CURRENT', 'TEMPERATURE_MAX'), false, 'a daily statistic is a warning for the current forecast');
  });
});
