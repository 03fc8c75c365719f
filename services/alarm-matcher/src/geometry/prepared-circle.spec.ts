import assert from 'node:assert/strict';
import { direct, distanceM } from '@stormhook/geometry';
import { seeded, square } from '@stormhook/geometry/testing';
import { Grid } from './grid.js';
import { PreparedCircle } from './prepared-circle.js';

describe('PreparedCircle', () => {
  const circle = new PreparedCircle([32.85, 39.92], 10_000);

  it('contains points up to the radius in metres', () => {
    // 1° of latitude is about 110.6 km: 0.09° is about 9.95 km, 0.091° about 10.06 km.
    assert.equal(circle.contains(32.85, 39.92 + 0.09), true);
    assert.equal(circle.contains(32.85, 39.92 + 0.091), false);
    assert.ok(Math.abs(circle.distanceM(32.85, 40.02) - distanceM([32.85, 39.92], [32.85, 40.02])) < 1);
  });

  it('covers cells consistently with its point test', () => {
    const grid = new Grid();
    const cover = circle.cover(grid);
    const random = seeded(5);
    for (const cell of cover.full) {
      const box = grid.bounds(cell);
      for (let i = 0; i < 10; i++) {
        assert.ok(circle.contains(box.minLng + random() * 0.1, box.minLat + random() * 0.1));
      }
    }
    const touched = new Set([...cover.full, ...cover.partial]);
    for (let i = 0; i < 2_000; i++) {
      const x = 32.6 + random() * 0.5;
      const y = 39.7 + random() * 0.5;
      if (circle.contains(x, y)) assert.ok(touched.has(grid.cellOf(x, y)));
    }
  });

  it('covers every cell a point of a large circle lies in, rim included, and only inside cells fully', () => {
    const grid = new Grid();
    const random = seeded(8);
    for (const [lng, lat, radius] of [
      [35, 39, 200_000],
      [28.5, 41.5, 120_000],
      [43, 37.5, 55_000],
    ] as const) {
      const big = new PreparedCircle([lng, lat], radius);
      const cover = big.cover(grid);
      const touched = new Set([...cover.full, ...cover.partial]);
      for (let i = 0; i < 5_000; i++) {
        const [x, y] = direct(lng, lat, random() * 2 * Math.PI, radius * (1 - random() * 0.01));
        assert.ok(touched.has(grid.cellOf(x, y)), `rim point ${x},${y} lies in an uncovered cell`);
      }
      for (const cell of cover.full) {
        const box = grid.bounds(cell);
        for (const [x, y] of [
          [box.minLng, box.minLat],
          [box.maxLng, box.maxLat],
          [(box.minLng + box.maxLng) / 2, box.minLat],
          [box.maxLng, (box.minLat + box.maxLat) / 2],
        ] as const) {
          assert.ok(distanceM([lng, lat], [x, y]) <= radius, `full cell ${cell} reaches beyond the radius`);
        }
      }
    }
  });

  it('intersects a polygon within reach of the radius only', () => {
    const near = square(32.85 + 0.11, 39.9, 0.05); // west edge about 9.4 km east of the centre
    const far = square(32.85 + 0.13, 39.9, 0.05); // about 11.1 km
    assert.equal(circle.intersects(near, { minLng: 32.96, minLat: 39.9, maxLng: 33.01, maxLat: 39.95 }), true);
    assert.equal(circle.intersects(far, { minLng: 32.98, minLat: 39.9, maxLng: 33.03, maxLat: 39.95 }), false);
  });
});
