import assert from 'node:assert/strict';
import { INTENSITIES, intensityForRainRate, intensityRank, RAIN_RATE_TABLE } from './intensity.js';

describe('rain rate to intensity', () => {
  it('classifies each bound into the class it starts', () => {
    const cases: Array<[number, string]> = [
      [0.1, 'DRIZZLE'],
      [0.49, 'DRIZZLE'],
      [0.5, 'LIGHT'],
      [2.49, 'LIGHT'],
      [2.5, 'MODERATE'],
      [9.99, 'MODERATE'],
      [10, 'HEAVY'],
      [25, 'VERY_HEAVY'],
      [49.9, 'VERY_HEAVY'],
      [50, 'EXTREME'],
      [300, 'EXTREME'],
    ];
    for (const [rate, expected] of cases) assert.equal(intensityForRainRate(rate), expected, `${rate} mm/h`);
  });

  it('orders the classes', () => {
    assert.ok(intensityRank('DRIZZLE') < intensityRank('LIGHT'));
    assert.ok(intensityRank('VERY_HEAVY') < intensityRank('EXTREME'));
    assert.deepEqual(INTENSITIES, ['DRIZZLE', 'LIGHT', 'MODERATE', 'HEAVY', 'VERY_HEAVY', 'EXTREME']);
  });

  it('lists the rain-rate table in the order of the classes, each class once', () => {
    assert.deepEqual(
      RAIN_RATE_TABLE.map((row) => row.intensity),
      [...INTENSITIES],
    );
  });
});
