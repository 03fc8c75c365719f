import assert from 'node:assert/strict';
import { distanceToBoundaryM, isClosed, ringsOf, type Position, type Ring } from '@stormhook/geometry';
import { fromCoordinates } from './geojson-coordinates.js';
import { ringProblem } from './ring.js';
import { countPositions, simplifyMultiPolygon, simplifyRing } from './simplify.js';

/** A circle of `n` vertices, radius in degrees of latitude, around (29, 41). */
function circleRing(n: number, radiusDeg: number): Ring {
  const ring: Position[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    ring.push([29 + (radiusDeg * Math.cos(a)) / Math.cos((41 * Math.PI) / 180), 41 + radiusDeg * Math.sin(a)]);
  }
  ring.push(ring[0]!);
  return ring;
}

/** Largest distance from an original vertex to the simplified ring (Hausdorff from original). */
function maxDeviationM(original: Ring, simplified: Ring): number {
  let worst = 0;
  for (const p of original) worst = Math.max(worst, distanceToBoundaryM(p, [{ exterior: simplified, holes: [] }]));
  return worst;
}

describe('Douglas-Peucker simplification in metres', () => {
  const ring = circleRing(720, 0.1); // about 11 km radius

  it('drops vertices while staying within the tolerance, closed and valid', () => {
    for (const tolerance of [10, 100, 1000]) {
      const simplified = simplifyRing(ring, tolerance);
      assert.ok(simplified.length < ring.length, `${tolerance} m removes vertices`);
      assert.equal(isClosed(simplified), true);
      assert.equal(ringProblem(simplified), undefined);
      assert.ok(maxDeviationM(ring, simplified) <= tolerance * 1.01, `deviation within ${tolerance} m`);
    }
    assert.ok(simplifyRing(ring, 1000).length < simplifyRing(ring, 100).length, 'more tolerance, fewer vertices');
  });

  it('keeps every vertex that matters (a square stays a square)', () => {
    const sq: Ring = [
      [29, 41],
      [29.05, 41],
      [29.1, 41],
      [29.1, 41.1],
      [29, 41.1],
      [29, 41],
    ];
    assert.deepEqual(simplifyRing(sq, 50), [
      [29, 41],
      [29.1, 41],
      [29.1, 41.1],
      [29, 41.1],
      [29, 41],
    ]);
  });

  it('never goes below a triangle, however large the tolerance', () => {
    const simplified = simplifyRing(ring, 50_000);
    assert.equal(simplified.length, 4);
    assert.equal(ringProblem(simplified), undefined);
  });

  it('returns the input for tolerance 0 or a ring that is already minimal', () => {
    assert.equal(simplifyRing(ring, 0), ring);
    const triangle: Ring = [
      [0, 0],
      [1, 0],
      [0, 1],
      [0, 0],
    ];
    assert.equal(simplifyRing(triangle, 1e6), triangle);
  });

  it('simplifies every ring of every part, holes included', () => {
    const geometry = fromCoordinates([[ring, circleRing(360, 0.02)], [circleRing(100, 0.01)]]);
    const simplified = simplifyMultiPolygon(geometry, 200);
    assert.equal(simplified.length, 2);
    assert.equal(simplified[0]!.holes.length, 1);
    assert.ok(countPositions(simplified) < countPositions(geometry) / 5);
    for (const r of ringsOf(simplified)) assert.equal(ringProblem(r), undefined);
  });
});
