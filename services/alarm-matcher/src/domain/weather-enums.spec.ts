import assert from 'node:assert/strict';
import { INTENSITIES, intensityRank, SEVERITIES, severityRank } from './weather-enums.js';

// Thresholds ("at or above") compare these ranks, so the lists must keep the contract's order.
describe('weather enumerations', () => {
  it('ranks intensities DRIZZLE 1 ... EXTREME 6', () => {
    assert.deepEqual(
      INTENSITIES.map((name) => [name, intensityRank(name)]),
      [
        ['DRIZZLE', 1],
        ['LIGHT', 2],
        ['MODERATE', 3],
        ['HEAVY', 4],
        ['VERY_HEAVY', 5],
        ['EXTREME', 6],
      ],
    );
  });

  it('ranks severities LOW 1 < MEDIUM 2 < HIGH 3', () => {
    assert.deepEqual(
      SEVERITIES.map((name) => [name, severityRank(name)]),
      [
        ['LOW', 1],
        ['MEDIUM', 2],
        ['HIGH', 3],
      ],
    );
  });
});
