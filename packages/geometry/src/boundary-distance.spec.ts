import assert from 'node:assert/strict';
import { circleTouchesMultiPolygon, distanceToBoundaryM, distanceToMultiPolygonM } from './boundary-distance.js';
import { LocalProjection } from './azimuthal-projection.js';
import { distanceM } from './geodesic.js';
import { seeded, square, squareRing } from './testing/shapes.js';
import type { MultiPolygon } from './types.js';

const near = (actual: number, expected: number, tolerance: number) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`);

describe('distances to a boundary', () => {
  const polygon: MultiPolygon = [{ exterior: squareRing(29, 41, 0.1), holes: [squareRing(29.04, 41.04, 0.02)] }];

  it('is 0 inside and the geodesic distance to the nearest edge outside or in a hole', () => {
    // Edges are straight in the plane of the point, so an 8 km edge along a parallel (a curve there)
    // passes up to 1.2 m nearer than the parallel itself: the sagitta, L² tan(lat) / 8R.
    assert.equal(distanceToMultiPolygonM([29.01, 41.01], polygon), 0);
    near(distanceToMultiPolygonM([29.05, 41.11], polygon), distanceM([29.05, 41.11], [29.05, 41.1]), 1.5); // north of the square
    near(distanceToMultiPolygonM([29.05, 41.05], polygon), distanceM([29.05, 41.05], [29.04, 41.05]), 0.5); // hole centre: lng side is nearer
    near(distanceToBoundaryM([29.05, 41.02], polygon), distanceM([29.05, 41.02], [29.05, 41]), 1.5);
  });

  it('to a vertex is the geodesic distance to it', () => {
    near(distanceToMultiPolygonM([28.5, 40.5], polygon), distanceM([28.5, 40.5], [29, 41]), 1e-6);
  });

  it('finds the nearest edge whatever the flat pre-pass thought, like projecting every edge', () => {
    const random = seeded(9);
    for (let i = 0; i < 2_000; i++) {
      const shape = square(30 + random() * 10, 37 + random() * 5, 0.001 + random() * random());
      const point = [29 + random() * 13, 36 + random() * 8] as const;
      const projection = new LocalProjection(point[0], point[1]);
      let exhaustive = Infinity;
      const ring = shape[0]!.exterior;
      for (let e = 1; e < ring.length; e++) {
        const [ax, ay] = projection.forward(ring[e - 1]![0], ring[e - 1]![1]);
        const [bx, by] = projection.forward(ring[e]![0], ring[e]![1]);
        const dx = bx - ax;
        const dy = by - ay;
        const t = Math.max(0, Math.min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy)));
        exhaustive = Math.min(exhaustive, Math.hypot(ax + t * dx, ay + t * dy));
      }
      near(distanceToBoundaryM(point, shape), exhaustive, 1e-6);
    }
  });

  it('tells whether a circle reaches the shape', () => {
    const d = distanceToMultiPolygonM([29.05, 41.2], polygon);
    assert.equal(circleTouchesMultiPolygon({ center: [29.05, 41.2], radiusM: d + 0.01 }, polygon), true);
    assert.equal(circleTouchesMultiPolygon({ center: [29.05, 41.2], radiusM: d - 0.01 }, polygon), false);
    assert.equal(circleTouchesMultiPolygon({ center: [29.01, 41.01], radiusM: 1 }, polygon), true, 'centre inside');
  });
});
