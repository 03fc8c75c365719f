import assert from 'node:assert/strict';
import { bboxOfMultiPolygon, expandBBox, unionBBox } from './bbox.js';
import { centroidOf } from './centroid.js';
import { distanceM } from './geodesic.js';
import { signedArea } from './ring.js';
import { squareRing } from './testing/shapes.js';
import type { MultiPolygon } from './types.js';

describe('centroid, area and boxes', () => {
  const hole = squareRing(0.5, 0.5, 0.5);
  const lShape: MultiPolygon = [{ exterior: squareRing(0, 0, 1), holes: [hole] }];

  it('weighs the centroid by area, holes subtracted, whatever the orientation', () => {
    const c = centroidOf(lShape);
    // Three quarters of the square, the missing quarter in the upper right.
    assert.ok(Math.abs(c[0] - 5 / 12) < 1e-9 && Math.abs(c[1] - 5 / 12) < 1e-9, JSON.stringify(c));
    const reversed: MultiPolygon = [{ exterior: [...squareRing(0, 0, 1)].reverse(), holes: [[...hole].reverse()] }];
    const r = centroidOf(reversed);
    assert.ok(Math.abs(r[0] - c[0]) < 1e-12 && Math.abs(r[1] - c[1]) < 1e-12, JSON.stringify(r));
  });

  it('falls back to the box centre for a shape without area', () => {
    assert.deepEqual(
      centroidOf([
        {
          exterior: [
            [0, 0],
            [2, 2],
            [0, 0],
          ],
          holes: [],
        },
      ]),
      [1, 1],
    );
  });

  it('measures signed area: counterclockwise positive', () => {
    assert.equal(signedArea(squareRing(0, 0, 1)), 1);
    assert.equal(signedArea([...squareRing(0, 0, 1)].reverse()), -1);
  });

  it('boxes shapes, joins boxes and grows them by at least the distance on every side', () => {
    const box = bboxOfMultiPolygon(lShape);
    assert.deepEqual(box, { minLng: 0, minLat: 0, maxLng: 1, maxLat: 1 });
    assert.deepEqual(unionBBox(box, { minLng: 2, minLat: -1, maxLng: 3, maxLat: 0 }), { minLng: 0, minLat: -1, maxLng: 3, maxLat: 1 });
    const grown = expandBBox({ minLng: 29, minLat: 41, maxLng: 29.1, maxLat: 41.1 }, 10_000);
    assert.ok(distanceM([grown.minLng, 41.1], [29, 41.1]) >= 10_000);
    assert.ok(distanceM([29.05, grown.maxLat], [29.05, 41.1]) >= 10_000);
    assert.ok(distanceM([29.05, grown.minLat], [29.05, 41]) >= 10_000);
  });
});
