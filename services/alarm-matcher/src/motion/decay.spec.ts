import assert from 'node:assert/strict';
import { bboxOfMultiPolygon, type MultiPolygon } from '@stormhook/geometry';
import { lifeAheadMin } from './decay.js';
import { EventProjection } from './projection.js';

const T0 = Date.UTC(2026, 6, 1, 12);
const SCAN = 300_000;

function series(rates: number[], areas?: number[]): Array<{ timeMs: number; flashesPerMin: number; areaKm2?: number }> {
  return rates.map((flashesPerMin, i) => ({ timeMs: T0 + i * SCAN, flashesPerMin, ...(areas ? { areaKm2: areas[i]! } : {}) }));
}

describe('decay of a thunderstorm cell', () => {
  it('extrapolates a falling flash rate to the thunderstorm threshold', () => {
    // 10, 8, 6 flashes/min over 10 minutes: 0.4 a minute; 4 more to lose above a threshold of 2 → 10 min.
    const life = lifeAheadMin(series([10, 8, 6]), 2);
    assert.ok(life !== undefined && Math.abs(life - 10) < 1e-9, `life ${life}`);
  });

  it('takes the nearer end when the core shrinks faster than the flashes fall', () => {
    // Radius from 4 to 2 km in 10 min (0.2 km/min): gone in 10 more; flashes would last 10 / (0.1) = 100 min.
    const area = (r: number): number => Math.PI * r * r;
    const life = lifeAheadMin(series([12, 11.5, 11], [area(4), area(3), area(2)]), 2);
    assert.ok(life !== undefined && Math.abs(life - 10) < 1e-6, `life ${life}`);
  });

  it('tells nothing of a steady or growing cell, or of one seen fewer than three times', () => {
    assert.equal(lifeAheadMin(series([6, 6, 6]), 2), undefined);
    assert.equal(lifeAheadMin(series([4, 6, 9], [50, 60, 80]), 2), undefined);
    assert.equal(lifeAheadMin(series([10, 6]), 2), undefined);
  });

  it('draws the trend from the last 15 minutes only: an old peak does not make a steady cell decay', () => {
    assert.equal(lifeAheadMin(series([20, 15, 10, 6, 6, 6, 6]), 2), undefined);
  });

  it('lets a projection hold back warnings of entries after the expected end', () => {
    const polygon: MultiPolygon = [
      {
        exterior: [
          [32, 39],
          [32.1, 39],
          [32.1, 39.1],
          [32, 39.1],
          [32, 39],
        ],
        holes: [],
      },
    ];
    const motion = { speedKmh: 40, towardDeg: 90, source: 'FEED' as const, trackAgeMin: 10, trackPoints: 3, quality: 0.9 };
    const decaying = new EventProjection(T0, polygon, bboxOfMultiPolygon(polygon), motion, 10);
    assert.equal(decaying.outlives(10), true);
    assert.equal(decaying.outlives(11), false);
    assert.equal(new EventProjection(T0, polygon, bboxOfMultiPolygon(polygon), motion).outlives(59), true, 'no decay seen: nothing held back');
  });
});
