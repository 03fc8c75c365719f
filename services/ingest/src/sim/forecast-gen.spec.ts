import assert from 'node:assert/strict';
import { feedV1, type weatherV1 } from '@stormhook/proto';
import { DEFAULT_RULES } from '../domain/rules.js';
import { validateForecast } from '../domain/validate-forecast.js';
import { forecastRun, gridPoints } from './forecast-gen.js';
import { DEFAULT_SIM_OPTIONS, type SimOptions } from './options.js';

const OPTS: SimOptions = { ...DEFAULT_SIM_OPTIONS, forecast: { ...DEFAULT_SIM_OPTIONS.forecast, days: 3, gridDeg: 1 } };

function series(cell: feedV1.GridCell, metric: weatherV1.ForecastMetric): number[] {
  return cell.series.find((s) => s.metric === metric)!.values;
}

describe('simulated forecast runs', () => {
  it('covers the grid in chunks that ingest accepts and Kafka takes', () => {
    const issue = Date.UTC(2025, 0, 15, 6);
    const chunks = forecastRun(issue, OPTS);
    assert.equal(
      chunks.reduce((n, c) => n + c.cells.length, 0),
      gridPoints(OPTS).length,
    );
    for (const chunk of chunks) {
      assert.equal(chunk.chunkCount, chunks.length);
      assert.ok(feedV1.ForecastGrid.encode(chunk).length < 1_000_000, 'chunk under 1 MB');
      const result = validateForecast(chunk, issue + 60_000, DEFAULT_RULES);
      assert.ok(result.ok, result.ok ? '' : result.reason);
    }
  });

  it('is repeatable for a run and differs between runs', () => {
    const a = forecastRun(Date.UTC(2025, 3, 1, 0), OPTS);
    const b = forecastRun(Date.UTC(2025, 3, 1, 0), OPTS);
    const c = forecastRun(Date.UTC(2025, 3, 1, 6), OPTS);
    assert.deepEqual(a, b);
    assert.notDeepEqual(a[0]!.cells[0]!.series, c[0]!.cells[0]!.series);
  });

  it('has warm afternoons, cold nights, hot summers and snow only in the cold', () => {
    const ankara = (month: number) =>
      forecastRun(Date.UTC(2025, month, 15, 0), OPTS)
        .flatMap((c) => c.cells)
        .find((c) => c.cellId === '40.000N_33.000E')!;
    const july = series(ankara(6), 'FORECAST_METRIC_TEMPERATURE');
    // Hour 12 is 12 UTC (15:00 local), hour 3 is 03 UTC (06:00 local).
    assert.ok(july[12]! - july[3]! > 6, `diurnal swing ${july[3]} -> ${july[12]}`);
    const january = series(ankara(0), 'FORECAST_METRIC_TEMPERATURE');
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    assert.ok(mean(july) - mean(january) > 15, `season ${mean(january).toFixed(1)} -> ${mean(july).toFixed(1)}`);
    for (const month of [0, 6]) {
      for (const chunk of forecastRun(Date.UTC(2025, month, 15, 0), OPTS)) {
        for (const cell of chunk.cells) {
          const temp = series(cell, 'FORECAST_METRIC_TEMPERATURE');
          const snow = series(cell, 'FORECAST_METRIC_SNOWFALL');
          const gusts = series(cell, 'FORECAST_METRIC_WIND_GUSTS');
          const wind = series(cell, 'FORECAST_METRIC_WIND_SPEED');
          snow.forEach((s, i) => assert.ok(s === 0 || temp[i]! < 2, `snow ${s} cm at ${temp[i]} °C`));
          gusts.forEach((g, i) => assert.ok(g >= wind[i]!, 'gusts at least the mean wind'));
        }
      }
    }
  });
});
