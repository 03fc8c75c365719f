import assert from 'node:assert/strict';
import { dailyValues, DAY_MS, HOUR_MS } from './daily.js';

const DAY = Date.UTC(2025, 8, 14);

describe('daily forecast values', () => {
  it('sums preceding-hour amounts into the UTC day they fell in', () => {
    // Valid times 01:00 .. 24:00 (= next day 00:00) cover exactly day D.
    const values = Array.from({ length: 25 }, (_, i) => (i === 0 ? 100 : 0.5));
    const days = dailyValues(DAY, [{ metric: 'PRECIPITATION', values }]);
    const d = days.find((x) => x.dayMs === DAY);
    assert.equal(d?.precipitationMm, 12, '24 hours x 0.5 mm');
    assert.equal(days.find((x) => x.dayMs === DAY - DAY_MS)?.precipitationMm, 100, 'the value valid at 00:00 belongs to the day before');
  });

  it('takes max and min of instantaneous temperatures by valid day, and the max gust', () => {
    const temperatures = [5, -7.5, 12, 33, 1];
    const gusts = [10, 20, 64, 30, 90];
    const days = dailyValues(DAY + 20 * HOUR_MS, [
      { metric: 'TEMPERATURE', values: temperatures },
      { metric: 'WIND_GUSTS', values: gusts },
    ]);
    const today = days.find((x) => x.dayMs === DAY)!;
    assert.equal(today.temperatureMaxC, 33);
    assert.equal(today.temperatureMinC, -7.5);
    assert.equal(today.windGustMaxKmh, 90, 'the gust valid at 00:00 describes 23:00-24:00, so it is today');
    const tomorrow = days.find((x) => x.dayMs === DAY + DAY_MS)!;
    assert.equal(tomorrow.temperatureMaxC, 1, 'temperature valid at 00:00 is tomorrow');
    assert.equal(tomorrow.windGustMaxKmh, undefined, 'the 00:00 gust describes the hour before');
  });

  it('skips missing values', () => {
    const days = dailyValues(DAY + HOUR_MS, [{ metric: 'SNOWFALL', values: [Number.NaN, 2, Number.NaN] }]);
    assert.deepEqual(days, [{ dayMs: DAY, snowfallCm: 2 }]);
  });
});
