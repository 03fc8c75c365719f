import assert from 'node:assert/strict';
import { pointInMultiPolygon, pointInPolygon, pointInRing } from './point-in-polygon.js';
import { squareRing } from './testing/shapes.js';
import type { MultiPolygon, Polygon } from './types.js';

describe('point in polygon (even-odd)', () => {
  // 10x10 square with a 4x4 hole in the middle, and an island inside the hole.
  const withHole: Polygon = { exterior: squareRing(0, 0, 10), holes: [[...squareRing(3, 3, 4)].reverse()] };
  const island: Polygon = { exterior: squareRing(4, 4, 2), holes: [] };
  const archipelago: MultiPolygon = [withHole, island];

  it('finds points inside the exterior and outside the hole', () => {
    assert.equal(pointInPolygon(1, 1, withHole), true);
    assert.equal(pointInPolygon(9.9, 5, withHole), true);
    assert.equal(pointInPolygon(5, 5, withHole), false, 'in the hole');
    assert.equal(pointInPolygon(11, 5, withHole), false, 'outside');
    assert.equal(pointInPolygon(-0.1, 5, withHole), false);
  });

  it('treats a part inside a hole as its own area', () => {
    assert.equal(pointInMultiPolygon(5, 5, archipelago), true, 'on the island');
    assert.equal(pointInMultiPolygon(3.5, 5, archipelago), false, 'in the water between');
    assert.equal(pointInMultiPolygon(1, 1, archipelago), true);
  });

  it('works for either ring orientation', () => {
    const clockwise = [...squareRing(0, 0, 2)].reverse();
    assert.equal(pointInRing(1, 1, clockwise), true);
    assert.equal(pointInRing(3, 1, clockwise), false);
  });

  it('gives a point on a shared edge to exactly one of two neighbours', () => {
    const left = squareRing(0, 0, 1);
    const right = squareRing(1, 0, 1);
    for (const y of [0.25, 0.5, 0.75]) {
      const hits = [pointInRing(1, y, left), pointInRing(1, y, right)].filter(Boolean).length;
      assert.equal(hits, 1, `point (1, ${y})`);
    }
  });

  it('handles a concave ring where the ray crosses several edges', () => {
    // A "U": the notch (1..2, 1..3) is outside.
    const u: Polygon = {
      exterior: [
        [0, 0],
        [3, 0],
        [3, 3],
        [2, 3],
        [2, 1],
        [1, 1],
        [1, 3],
        [0, 3],
        [0, 0],
      ],
      holes: [],
    };
    assert.equal(pointInPolygon(0.5, 2, u), true);
    assert.equal(pointInPolygon(1.5, 2, u), false);
    assert.equal(pointInPolygon(2.5, 2, u), true);
    assert.equal(pointInPolygon(1.5, 0.5, u), true);
  });
});
