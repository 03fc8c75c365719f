import assert from 'node:assert/strict';
import { square } from '../../test-support/shapes.js';
import { bboxOf, expandBBox } from './bbox.js';
import { haversineM, METRES_PER_DEGREE_LAT, metresPerDegreeLng, pointToBoundaryM, pointToPolygonM, pointToSegmentM } from './distance.js';

const near = (actual: number, expected: number, tolerance: number) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`);

describe('distances in metres', () => {
  it('haversine matches known distances', () => {
    // Istanbul (Sultanahmet) to Ankara (Kızılay): about 350 km great-circle.
    near(haversineM([28.9784, 41.0082], [32.8541, 39.9208]), 349_500, 1_500);
    near(haversineM([0, 0], [0, 1]), METRES_PER_DEGREE_LAT, 1e-6);
  });

  it('point to segment agrees with haversine to the nearest point', () => {
    // A north-south segment at lng 29; the point 0.01 deg east at the same latitude.
    const d = pointToSegmentM([29.01, 41], [29, 40.9], [29, 41.1]);
    near(d, haversineM([29.01, 41], [29, 41]), 1);
    // Beyond the segment's end the distance is to the end point.
    near(pointToSegmentM([29, 41.2], [29, 40.9], [29, 41.1]), haversineM([29, 41.2], [29, 41.1]), 1);
  });

  it('stays within 0.5 % of the great circle at 200 km', () => {
    const centre: [number, number] = [35, 39];
    for (const [dLng, dLat] of [[2.3, 0], [0, 1.8], [1.6, 1.3], [-1.6, -1.3]] as const) {
      const far: [number, number] = [centre[0] + dLng, centre[1] + dLat];
      const exact = haversineM(centre, far);
      near(pointToSegmentM(centre, far, far), exact, exact * 0.005);
    }
  });

  it('is 0 inside a polygon and the boundary distance outside or in a hole', () => {
    const polygon = [[square(29, 41, 0.1), square(29.04, 41.04, 0.02)]];
    assert.equal(pointToPolygonM([29.01, 41.01], polygon), 0);
    // Hole centre: 0.01 deg to each side, and a degree of longitude is the shorter one.
    near(pointToPolygonM([29.05, 41.05], polygon), 0.01 * metresPerDegreeLng(41.05), 5);
    near(pointToPolygonM([29.05, 41.11], polygon), 0.01 * METRES_PER_DEGREE_LAT, 5); // north of the square
    near(pointToBoundaryM([29.05, 41.02], polygon), 0.02 * METRES_PER_DEGREE_LAT, 5);
  });

  it('grows a bbox by at least the distance on every side', () => {
    const box = bboxOf([[square(29, 41, 0.1)]]);
    const grown = expandBBox(box, 10_000);
    assert.ok(haversineM([grown[0], 41.05], [29, 41.05]) >= 10_000 - 1e-6);
    assert.ok(haversineM([29.05, grown[3]], [29.05, 41.1]) >= 10_000 - 1e-6);
    assert.ok(haversineM([29.05, grown[1]], [29.05, 41]) >= 10_000 - 1e-6);
  });
});
