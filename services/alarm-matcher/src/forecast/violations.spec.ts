import assert from 'node:assert/strict';
import { DAY_MS } from './daily.js';
import { CellLocator, type CellForecast } from './forecast-cells.js';
import { evaluatedDays, latestDueSlot, slotOn } from './slots.js';
import { violationsOf } from './violations.js';

const DAY = Date.UTC(2025, 8, 14);

function cell(cellId: string, lng: number, lat: number, days: CellForecast['days']): CellForecast {
  return { cellId, location: [lng, lat], runId: 'run-1', issueMs: DAY - 6 * 3_600_000, days };
}

describe('forecast violations', () => {
  const a = cell('a', 32.8, 39.9, [
    { dayMs: DAY, precipitationMm: 9.99, temperatureMinC: -4 },
    { dayMs: DAY + DAY_MS, precipitationMm: 14, temperatureMinC: -6 },
    { dayMs: DAY + 2 * DAY_MS, precipitationMm: 40 },
  ]);
  const b = cell('b', 32.9, 39.9, [
    { dayMs: DAY, precipitationMm: 10, temperatureMinC: -9 },
    { dayMs: DAY + DAY_MS, precipitationMm: 3 },
  ]);

  it('lists only breaching days, each with the worst cell', () => {
    const violations = violationsOf({ precipitationThreshold: 'MODERATE', coldTemperatureThreshold: 'COLD_SNAP' }, [a, b], [DAY, DAY + DAY_MS]);
    assert.deepEqual(violations, [
      {
        metric: 'PRECIPITATION',
        unit: 'mm',
        threshold: 'MODERATE',
        thresholdValue: 10,
        comparison: '>=',
        forecasts: [
          { time: '2025-09-14T00:00:00Z', value: 10, cellId: 'b', latitude: 39.9, longitude: 32.9 },
          { time: '2025-09-15T00:00:00Z', value: 14, cellId: 'a', latitude: 39.9, longitude: 32.8 },
        ],
      },
      {
        metric: 'TEMPERATURE_MIN',
        unit: '°C',
        threshold: 'COLD_SNAP',
        thresholdValue: -5,
        comparison: '<=',
        forecasts: [
          { time: '2025-09-14T00:00:00Z', value: -9, cellId: 'b', latitude: 39.9, longitude: 32.9 },
          { time: '2025-09-15T00:00:00Z', value: -6, cellId: 'a', latitude: 39.9, longitude: 32.8 },
        ],
      },
    ]);
  });

  it('looks at the evaluated days only, and reports nothing without a breach', () => {
    assert.deepEqual(violationsOf({ precipitationThreshold: 'HEAVY' }, [a, b], [DAY, DAY + DAY_MS]), [], 'the 40 mm day is outside the window');
    assert.equal(violationsOf({ precipitationThreshold: 'HEAVY' }, [a, b], evaluatedDays(slotOn('MORNING', DAY), 3)).length, 1);
  });

  it('finds the nearest cell within the limit', () => {
    const locator = new CellLocator([a, b]);
    assert.equal(locator.nearest([32.86, 39.9], 50_000)?.cell.cellId, 'b');
    assert.equal(locator.nearest([34.5, 39.9], 50_000), undefined, 'over 100 km away');
    assert.deepEqual(
      locator.within({ minLng: 32.75, minLat: 39.8, maxLng: 32.85, maxLat: 40 }).map((c) => c.cellId),
      ['a'],
    );
  });
});

describe('forecast slots', () => {
  it('are at 04:00 and 16:00 UTC, the latest due one at or before now', () => {
    assert.equal(slotOn('MORNING', DAY + 10 * 3_600_000).id, '2025-09-14T04:00Z');
    assert.equal(latestDueSlot('EVENING', DAY + 15 * 3_600_000).id, '2025-09-13T16:00Z');
    assert.equal(latestDueSlot('EVENING', DAY + 16 * 3_600_000).id, '2025-09-14T16:00Z');
    assert.deepEqual(evaluatedDays(slotOn('EVENING', DAY), 2), [DAY, DAY + DAY_MS]);
  });
});
