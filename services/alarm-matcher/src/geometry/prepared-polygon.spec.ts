import assert from 'node:assert/strict';
import { multiPolygonsTouch, pointInMultiPolygon, type MultiPolygon } from '@stormhook/geometry';
import { seeded, squareRing } from '@stormhook/geometry/testing';
import { Grid } from './grid.js';
import { PreparedPolygon } from './prepared-polygon.js';

/** A concave "U" with a square hole in its base, spanning several grid rows and columns. */
const U_SHAPE: MultiPolygon = [
  {
    exterior: [
      [30, 38],
      [31, 38],
      [31, 39],
      [30.7, 39],
      [30.7, 38.4],
      [30.3, 38.4],
      [30.3, 39],
      [30, 39],
      [30, 38],
    ],
    holes: [squareRing(30.45, 38.05, 0.1)],
  },
];

describe('PreparedPolygon', () => {
  const grid = new Grid();
  const prepared = new PreparedPolygon(U_SHAPE, grid);

  it('agrees with the plain even-odd test on random points (concave parts and holes included)', () => {
    const random = seeded(7);
    let inside = 0;
    for (let i = 0; i < 20_000; i++) {
      const x = 29.9 + random() * 1.2;
      const y = 37.9 + random() * 1.2;
      const expected = pointInMultiPolygon(x, y, U_SHAPE);
      if (expected) inside++;
      assert.equal(prepared.contains(x, y), expected, `point ${x},${y}`);
    }
    assert.ok(inside > 5_000 && inside < 15_000, 'the sample covers both sides');
  });

  it('excludes the hole and the notch of the U', () => {
    assert.equal(prepared.contains(30.5, 38.1), false, 'inside the hole');
    assert.equal(prepared.contains(30.5, 38.8), false, 'in the notch');
    assert.equal(prepared.contains(30.15, 38.8), true, 'left arm');
    assert.equal(prepared.contains(30.9, 38.2), true, 'base');
  });

  it('covers full cells only where every point is inside, and lists every touched cell', () => {
    const cover = prepared.cover(grid);
    const random = seeded(11);
    for (const cell of cover.full) {
      const box = grid.bounds(cell);
      for (let i = 0; i < 20; i++) {
        const x = box.minLng + random() * (box.maxLng - box.minLng);
        const y = box.minLat + random() * (box.maxLat - box.minLat);
        assert.ok(pointInMultiPolygon(x, y, U_SHAPE), `full cell ${cell} holds an outside point`);
      }
    }
    const touched = new Set([...cover.full, ...cover.partial]);
    for (let i = 0; i < 5_000; i++) {
      const x = 30 + random();
      const y = 38 + random();
      if (pointInMultiPolygon(x, y, U_SHAPE)) assert.ok(touched.has(grid.cellOf(x, y)), 'an inside point lies in an uncovered cell');
    }
    assert.ok(cover.full.length > 0 && cover.partial.length > 0);
  });

  it('tests intersection with other shapes like the plain test', () => {
    const random = seeded(3);
    for (let i = 0; i < 500; i++) {
      const size = 0.02 + random() * 0.3;
      const other: MultiPolygon = [{ exterior: squareRing(29.8 + random() * 1.4, 37.8 + random() * 1.4, size), holes: [] }];
      const box = {
        minLng: other[0]!.exterior[0]![0],
        minLat: other[0]!.exterior[0]![1],
        maxLng: other[0]!.exterior[2]![0],
        maxLat: other[0]!.exterior[2]![1],
      };
      assert.equal(prepared.intersects(other, box), multiPolygonsTouch(U_SHAPE, other));
    }
  });

  it('finds a shape lying wholly inside it, and one wholly inside its hole as outside', () => {
    const within: MultiPolygon = [{ exterior: squareRing(30.05, 38.5, 0.05), holes: [] }];
    assert.equal(prepared.intersects(within, { minLng: 30.05, minLat: 38.5, maxLng: 30.1, maxLat: 38.55 }), true);
    const inHole: MultiPolygon = [{ exterior: squareRing(30.47, 38.07, 0.02), holes: [] }];
    assert.equal(prepared.intersects(inHole, { minLng: 30.47, minLat: 38.07, maxLng: 30.49, maxLat: 38.09 }), false);
  });
});
