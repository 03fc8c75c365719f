import assert from 'node:assert/strict';
import { isClosed, signedArea, type Ring } from '@stormhook/geometry';
import { rect, square } from '../../test-support/shapes.js';
import { fromCoordinates } from './geojson-coordinates.js';
import { largestPolygon, multiPolygonProblem, ringProblem } from './ring.js';

describe('ring checks', () => {
  it('accepts a closed square and reports its orientation', () => {
    const ring = square(0, 0, 1);
    assert.equal(isClosed(ring), true);
    assert.equal(ringProblem(ring), undefined);
    assert.equal(signedArea(ring), 1); // counter-clockwise, area 1
    assert.equal(signedArea([...ring].reverse()), -1);
  });

  it('names what is wrong with a ring', () => {
    assert.match(
      ringProblem([
        [0, 0],
        [1, 0],
        [0, 0],
      ])!,
      /has 3 positions, needs at least 4/,
    );
    assert.match(
      ringProblem([
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
      ])!,
      /not closed/,
    );
    assert.match(
      ringProblem([
        [0, 0],
        [1, 1],
        [2, 2],
        [0, 0],
      ])!,
      /zero area/,
    );
    assert.match(
      ringProblem([
        [0, 0],
        [Number.NaN, 0],
        [1, 1],
        [0, 0],
      ])!,
      /position 1 is not a pair of finite numbers/,
    );
  });

  it('locates the first problem in a multi-polygon', () => {
    const open: Ring = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ];
    assert.equal(multiPolygonProblem(fromCoordinates([[square(0, 0, 1)]])), undefined);
    assert.equal(
      multiPolygonProblem(fromCoordinates([[square(0, 0, 1)], [square(5, 5, 1), open]])),
      'polygon 1 ring 1 is not closed (first position differs from last)',
    );
    assert.equal(multiPolygonProblem([]), 'has no polygons');
  });

  it('picks the part with the largest exterior for the ring form', () => {
    const small = { exterior: square(0, 0, 1), holes: [] };
    const big = { exterior: rect(10, 10, 13, 12), holes: [] };
    assert.equal(largestPolygon([small, big]), big);
    assert.equal(largestPolygon([]), undefined);
  });
});
