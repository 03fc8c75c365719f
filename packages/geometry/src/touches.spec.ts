import assert from 'node:assert/strict';
import { multiPolygonsTouch, segmentsIntersect } from './touches.js';
import { square, squareRing } from './testing/shapes.js';
import type { MultiPolygon } from './types.js';

describe('touches', () => {
  // A 1x1 degree area with a hole (0.4..0.6).
  const area: MultiPolygon = [{ exterior: squareRing(0, 0, 1), holes: [squareRing(0.4, 0.4, 0.2)] }];

  it('segments: crossing, touching, collinear overlap and apart', () => {
    assert.equal(segmentsIntersect(0, 0, 2, 2, 0, 2, 2, 0), true);
    assert.equal(segmentsIntersect(0, 0, 1, 0, 1, 0, 2, 5), true, 'touching at an end');
    assert.equal(segmentsIntersect(0, 0, 2, 0, 1, 0, 3, 0), true, 'collinear overlap');
    assert.equal(segmentsIntersect(0, 0, 1, 0, 2, 0, 3, 0), false, 'collinear apart');
    assert.equal(segmentsIntersect(0, 0, 1, 1, 0, 1, 0.4, 0.6), false);
  });

  it('polygons: crossing borders, containment either way, holes and sharing an edge', () => {
    assert.equal(multiPolygonsTouch(square(0.9, 0.9, 1), area), true, 'overlapping corner');
    assert.equal(multiPolygonsTouch(square(-1, -1, 3), area), true, 'one contains the other');
    assert.equal(multiPolygonsTouch(square(0.1, 0.1, 0.1), area), true, 'the area contains it');
    assert.equal(multiPolygonsTouch(square(0.45, 0.45, 0.1), area), false, 'inside the hole');
    assert.equal(multiPolygonsTouch(square(2, 2, 1), area), false, 'apart');
    assert.equal(multiPolygonsTouch(square(1, 0.2, 0.1), area), true, 'sharing an edge');
    // A shape with a hole that holds the whole area: no shared point.
    const frame: MultiPolygon = [{ exterior: squareRing(-2, -2, 5), holes: [squareRing(-1, -1, 3)] }];
    assert.equal(multiPolygonsTouch(frame, area), false);
    assert.equal(multiPolygonsTouch(area, frame), false, 'symmetric');
  });
});
