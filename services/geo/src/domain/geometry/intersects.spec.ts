import assert from 'node:assert/strict';
import { rect, square } from '../../test-support/shapes.js';
import { METRES_PER_DEGREE_LAT } from './distance.js';
import { circleIntersectsArea, polygonIntersectsArea, segmentsIntersect } from './intersects.js';
import type { MultiPolygon } from './types.js';

describe('intersection tests', () => {
  // A 1x1 degree area at the equator-ish latitude 0 with a hole (0.4..0.6).
  const area: MultiPolygon = [[square(0, 0, 1), square(0.4, 0.4, 0.2)]];

  it('segments: crossing, touching, collinear overlap and apart', () => {
    assert.equal(segmentsIntersect([0, 0], [2, 2], [0, 2], [2, 0]), true);
    assert.equal(segmentsIntersect([0, 0], [1, 0], [1, 0], [2, 5]), true, 'touching at an end');
    assert.equal(segmentsIntersect([0, 0], [2, 0], [1, 0], [3, 0]), true, 'collinear overlap');
    assert.equal(segmentsIntersect([0, 0], [1, 0], [2, 0], [3, 0]), false, 'collinear apart');
    assert.equal(segmentsIntersect([0, 0], [1, 1], [0, 1], [0.4, 0.6]), false);
  });

  it('polygon: crossing borders, containment either way, holes and distance', () => {
    assert.equal(polygonIntersectsArea([rect(0.9, 0.9, 2, 2)], area), true, 'overlapping corner');
    assert.equal(polygonIntersectsArea([rect(-1, -1, 2, 2)], area), true, 'query contains the area');
    assert.equal(polygonIntersectsArea([rect(0.1, 0.1, 0.2, 0.2)], area), true, 'area contains the query');
    assert.equal(polygonIntersectsArea([rect(0.45, 0.45, 0.55, 0.55)], area), false, 'query inside the hole');
    assert.equal(polygonIntersectsArea([rect(2, 2, 3, 3)], area), false, 'apart');
    assert.equal(polygonIntersectsArea([rect(1, 0.2, 2, 0.3)], area), true, 'sharing an edge');
    // A query with a hole that holds the whole area: no shared point.
    assert.equal(polygonIntersectsArea([rect(-2, -2, 3, 3), rect(-1, -1, 2, 2)], area), false);
  });

  it('circle: centre inside, rim reaching the boundary, inside the hole, too far', () => {
    const km = (n: number) => n * 1000;
    assert.equal(circleIntersectsArea({ center: [0.5, 0.2], radiusM: 10 }, area), true);
    assert.equal(circleIntersectsArea({ center: [1.1, 0.5], radiusM: km(12) }, area), true, '0.1 deg = 11.1 km');
    assert.equal(circleIntersectsArea({ center: [1.1, 0.5], radiusM: km(10) }, area), false);
    assert.equal(circleIntersectsArea({ center: [0.5, 0.5], radiusM: km(5) }, area), false, 'inside the hole, 11 km from its rim');
    assert.equal(circleIntersectsArea({ center: [0.5, 0.5], radiusM: 0.11 * METRES_PER_DEGREE_LAT }, area), true);
  });
});
