import assert from 'node:assert/strict';
import { DAY_MS, HOUR_MS } from './buckets.js';
import { CoverageIndex } from './coverage.js';

const D = 20_000 * DAY_MS;

describe('coverage by hour', () => {
  it('merges covered hours into spans clipped to the window, and leaves a day without records out', () => {
    const c = new CoverageIndex();
    c.add('LIGHTNING', D + 1 * HOUR_MS + 5);
    c.add('LIGHTNING', D + 2 * HOUR_MS + 59 * 60_000);
    c.add('LIGHTNING', D + 23 * HOUR_MS);
    c.add('LIGHTNING', D + DAY_MS + 10); // hour 0 of the next day joins hour 23
    c.add('LIGHTNING', D + 3 * DAY_MS + 4 * HOUR_MS); // day 2 has none
    c.add('PRECIPITATION', D);
    assert.deepEqual(c.spans('LIGHTNING', D + HOUR_MS + 30 * 60_000, D + 4 * DAY_MS), [
      { fromMs: D + HOUR_MS + 30 * 60_000, toMs: D + 3 * HOUR_MS },
      { fromMs: D + 23 * HOUR_MS, toMs: D + DAY_MS + HOUR_MS },
      { fromMs: D + 3 * DAY_MS + 4 * HOUR_MS, toMs: D + 3 * DAY_MS + 5 * HOUR_MS },
    ]);
    assert.deepEqual(c.spans('THUNDERSTORM', D, D + DAY_MS), []);
    c.dropBefore(20_001);
    assert.deepEqual(c.spans('PRECIPITATION', D, D + DAY_MS), []);
  });
});
