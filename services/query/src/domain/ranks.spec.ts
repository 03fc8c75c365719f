import assert from 'node:assert/strict';
import { intensityOfRank, intensityRank, publicIntensity, severityRank } from './ranks.js';

// The ranks order stored events for "at or above" filters: they must follow the contract's order.
describe('weather ranks', () => {
  it('ranks intensities DRIZZLE 1 ... EXTREME 6 and UNSPECIFIED 0', () => {
    const ranks = [
      'PRECIPITATION_INTENSITY_UNSPECIFIED',
      'PRECIPITATION_INTENSITY_DRIZZLE',
      'PRECIPITATION_INTENSITY_LIGHT',
      'PRECIPITATION_INTENSITY_MODERATE',
      'PRECIPITATION_INTENSITY_HEAVY',
      'PRECIPITATION_INTENSITY_VERY_HEAVY',
      'PRECIPITATION_INTENSITY_EXTREME',
    ] as const;
    assert.deepEqual(ranks.map(intensityRank), [0, 1, 2, 3, 4, 5, 6]);
    assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7].map(intensityOfRank), [...ranks, 'PRECIPITATION_INTENSITY_UNSPECIFIED']);
  });

  it('ranks severities LOW 1 < MEDIUM 2 < HIGH 3 and UNSPECIFIED 0', () => {
    const ranks = ['THUNDERSTORM_SEVERITY_UNSPECIFIED', 'THUNDERSTORM_SEVERITY_LOW', 'THUNDERSTORM_SEVERITY_MEDIUM', 'THUNDERSTORM_SEVERITY_HIGH'] as const;
    assert.deepEqual(ranks.map(severityRank), [0, 1, 2, 3]);
  });

  it('spells intensities publicly without the prefix', () => {
    assert.equal(publicIntensity('PRECIPITATION_INTENSITY_VERY_HEAVY'), 'VERY_HEAVY');
    assert.equal(publicIntensity('PRECIPITATION_INTENSITY_UNSPECIFIED'), '');
  });
});
