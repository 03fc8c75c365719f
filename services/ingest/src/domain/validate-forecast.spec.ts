import assert from 'node:assert/strict';
import { forecast, NOW } from '../test-support/feed-fixtures.js';
import { DEFAULT_RULES } from './rules.js';
import { validateForecast } from './validate-forecast.js';

function reason(result: ReturnType<typeof validateForecast>): string {
  assert.equal(result.ok, false, 'expected a reject');
  return result.ok ? '' : result.reason;
}

describe('validateForecast', () => {
  it('splits a chunk into one event per area, sorted by area key', () => {
    const result = validateForecast(forecast(), NOW, DEFAULT_RULES);
    assert.ok(result.ok);
    assert.equal(result.value.sourceId, 'sim-run-2025061511#0');
    assert.deepEqual(
      result.value.events.map((e) => [e.eventId, e.areaKey, e.cells.map((c) => c.cellId)]),
      [
        ['fcs_sim-run-2025061511.0.sxk', 'sxk', ['41.010_28.980']],
        ['fcs_sim-run-2025061511.0.sxp', 'sxp', ['39.930_32.850']],
      ],
    );
    const ankara = result.value.events[1]!.cells[0]!;
    assert.equal(ankara.elevationM, 900);
    assert.deepEqual(ankara.series[0], { metric: 'FORECAST_METRIC_TEMPERATURE', values: [21.5, 23, 24.25] });
    // A missing hour stays NaN.
    assert.ok(Number.isNaN(ankara.series[1]!.values[2]));
  });

  it('rejects a series whose length differs from hour_count', () => {
    const msg = forecast();
    msg.cells[1]!.series[0]!.values.push(25);
    assert.match(reason(validateForecast(msg, NOW, DEFAULT_RULES)), /^cells\[1\]\.series\[0\]\.values: has 4 values; hour_count says 3/);
  });

  it('rejects a physically impossible value, naming metric, hour and unit', () => {
    const msg = forecast();
    msg.cells[0]!.series[0]!.values[1] = 75; // 75 °C: a Fahrenheit value sent as Celsius
    assert.match(reason(validateForecast(msg, NOW, DEFAULT_RULES)), /cells\[0\]\.series\[0\]\.values\[1\]: TEMPERATURE 75 °C is outside -90 to 60 °C/);
  });

  it('rejects duplicate cells, duplicate metrics and an unset metric', () => {
    const dupCell = forecast();
    dupCell.cells[1]!.cellId = dupCell.cells[0]!.cellId;
    assert.match(reason(validateForecast(dupCell, NOW, DEFAULT_RULES)), /cells\[1\]\.cell_id: .* appears twice/);
    const dupMetric = forecast();
    dupMetric.cells[0]!.series[1]!.metric = 'FORECAST_METRIC_TEMPERATURE';
    assert.match(reason(validateForecast(dupMetric, NOW, DEFAULT_RULES)), /series\[1\]\.metric: FORECAST_METRIC_TEMPERATURE appears twice/);
    const unset = forecast();
    unset.cells[0]!.series[0]!.metric = 'FORECAST_METRIC_UNSPECIFIED';
    assert.match(reason(validateForecast(unset, NOW, DEFAULT_RULES)), /series\[0\]\.metric: is required/);
  });

  it('rejects a bad header: chunk index, hour alignment, issue time in the future', () => {
    assert.match(reason(validateForecast(forecast({ chunkIndex: 2, chunkCount: 2 }), NOW, DEFAULT_RULES)), /chunk_index: 2 chunks is outside 0 to 1/);
    assert.match(reason(validateForecast(forecast({ firstHourEpochMs: NOW + 60_000 }), NOW, DEFAULT_RULES)), /first_hour_epoch_ms: .* not a whole hour/);
    assert.match(reason(validateForecast(forecast({ issueEpochMs: NOW + 3_600_000 }), NOW, DEFAULT_RULES)), /issue_epoch_ms: .* in the future/);
    assert.match(reason(validateForecast(forecast({ model: '' }), NOW, DEFAULT_RULES)), /model: is required/);
  });
});
