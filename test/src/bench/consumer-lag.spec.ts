import { strict as assert } from 'node:assert';
import { longestStall, summarizeLag, type LagSample } from './consumer-lag.js';

/** One sample every 5 s from t = 0 with the given ingest lags. */
const series = (lags: Array<number | undefined>): LagSample[] => lags.map((lag, i) => ({ atMs: i * 5_000, lags: { ingest: lag } }));
const window = { growthPerSecond: 20, floor: 1_000 };

describe('summarizeLag', () => {
  it('calls a backlog that climbs through the load growing, with its slope, max and last value', () => {
    const s = summarizeLag(series([0, 5_000, 10_000, 15_000]), 'ingest', window);
    assert.equal(s.grows, true);
    assert.equal(Math.round(s.slopePerSecond), 1_000);
    assert.equal(s.max, 15_000);
    assert.equal(s.last, 15_000);
  });

  it('does not call a flat backlog of in-flight work growing', () => {
    const s = summarizeLag(series([400, 450, 380, 420, 410]), 'ingest', window);
    assert.equal(s.grows, false);
    assert.equal(s.max, 450);
  });

  it('does not call a small backlog growing even when it rises (under the floor)', () => {
    assert.equal(summarizeLag(series([0, 200, 400, 600]), 'ingest', window).grows, false);
  });

  it('skips samples the broker did not answer and keeps to the window', () => {
    const s = summarizeLag(series([99_999, undefined, 100, 100, 100]), 'ingest', { ...window, fromMs: 5_000 });
    assert.equal(s.samples, 3);
    assert.equal(s.max, 100);
    assert.equal(s.slopePerSecond, 0);
  });
});

describe('longestStall', () => {
  it('finds the longest stretch with records waiting and the lag never going down', () => {
    // 0 s: 0, 5: 100, 10: 50 (progress), 15: 60, 20: 60, 25: 70, 30: 0
    const stall = longestStall(series([0, 100, 50, 60, 60, 70, 0]), 'ingest');
    assert.deepEqual(stall, { seconds: 15, waiting: 70 });
  });

  it('is zero for a consumer that keeps draining', () => {
    assert.deepEqual(longestStall(series([300, 200, 100, 0]), 'ingest'), { seconds: 0, waiting: 0 });
  });
});
