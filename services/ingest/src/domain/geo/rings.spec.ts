import assert from 'node:assert/strict';
import { areaKm2, centroidOf } from './measure.js';
import { isClosed, oriented, signedArea, withoutRepeats } from './rings.js';

const ccw = [
  { lng: 0, lat: 0 },
  { lng: 1, lat: 0 },
  { lng: 1, lat: 1 },
  { lng: 0, lat: 1 },
  { lng: 0, lat: 0 },
];

describe('rings', () => {
  it('measures signed area: counterclockwise positive', () => {
    assert.equal(signedArea(ccw), 1);
    assert.equal(signedArea([...ccw].reverse()), -1);
  });

  it('re-orients only when needed', () => {
    assert.equal(oriented(ccw, true), ccw);
    assert.deepEqual(oriented(ccw, false), [...ccw].reverse());
  });

  it('tells closed rings from open ones and drops repeated vertices', () => {
    assert.equal(isClosed(ccw), true);
    assert.equal(isClosed(ccw.slice(0, 4)), false);
    assert.equal(withoutRepeats([ccw[0]!, ccw[0]!, ...ccw.slice(1)]).length, 5);
  });

  it('computes area in km² and the centroid, holes subtracted', () => {
    const hole = [
      { lng: 0.5, lat: 0.5 },
      { lng: 0.5, lat: 1 },
      { lng: 1, lat: 1 },
      { lng: 1, lat: 0.5 },
      { lng: 0.5, lat: 0.5 },
    ];
    const whole = areaKm2([{ exterior: { points: ccw }, holes: [] }]);
    // One square degree at the equator: about 111.32 km x 110.57 km.
    assert.ok(Math.abs(whole - 12_309) < 10, `area ${whole}`);
    const withHole = areaKm2([{ exterior: { points: ccw }, holes: [{ points: hole }] }]);
    assert.ok(Math.abs(withHole - whole * 0.75) < 10);
    const c = centroidOf({ polygons: [{ exterior: { points: ccw }, holes: [{ points: hole }] }] });
    // An L shape: three quarters of the square, the missing quarter in the upper right.
    assert.ok(Math.abs(c.lng - 5 / 12) < 1e-9 && Math.abs(c.lat - 5 / 12) < 1e-9, JSON.stringify(c));
  });
});
