import assert from 'node:assert/strict';
import { ForecastMemo } from './forecast-memo.js';
import type { ForecastCell } from './forecast-store.js';

const cell = (id: string): ForecastCell => ({ id, lng: 29, lat: 41, firstHour: 0, hourCount: 1, series: new Map() });

describe('ForecastMemo', () => {
  it('computes once per cell and key, and afresh for another cell object (a new revision) or key', () => {
    const memo = new ForecastMemo<string>();
    let computed = 0;
    const compute = () => `answer-${++computed}`;
    const a = cell('a');
    assert.equal(memo.get(a, 'k1', compute), 'answer-1');
    assert.equal(memo.get(a, 'k1', compute), 'answer-1');
    assert.equal(memo.get(a, 'k2', compute), 'answer-2');
    assert.equal(memo.get(cell('a'), 'k1', compute), 'answer-3', 'a replaced cell is another object');
  });

  it('keeps at most maxPerCell answers per cell', () => {
    const memo = new ForecastMemo<number>(2);
    const a = cell('a');
    let computed = 0;
    for (const key of ['k1', 'k2', 'k3', 'k1']) memo.get(a, key, () => ++computed);
    assert.equal(computed, 4, 'k1 was dropped when the third key came');
  });
});
