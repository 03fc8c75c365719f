import assert from 'node:assert/strict';
import { direct, distanceM } from './geodesic.js';
import { LOCAL_SCALE_MAX_LAT, LOCAL_SCALE_MAX_M, LocalScale, metresPerDegreeLat, metresPerDegreeLng } from './local-scale.js';
import { seeded } from './testing/shapes.js';

describe('the flat local scale', () => {
  it('has the ellipsoid degree lengths', () => {
    assert.ok(Math.abs(metresPerDegreeLat(0) - 110_574.3) < 0.5);
    assert.ok(Math.abs(metresPerDegreeLng(0) - 111_319.5) < 0.5);
    assert.ok(Math.abs(metresPerDegreeLng(60) - 55_800) < 10);
  });

  it('stays well within its stated tolerance over its whole range', () => {
    // The bound the hot paths rely on: the sampled error must stay under half of it, so a change to
    // the metric that loosens it fails this test rather than silently changing who gets an alarm.
    const random = seeded(2026);
    let worst = 0;
    for (let i = 0; i < 100_000; i++) {
      const lat = (random() * 2 - 1) * LOCAL_SCALE_MAX_LAT;
      const lng = random() * 340 - 170; // clear of the antimeridian, where longitudes wrap
      const s = 1 + random() * LOCAL_SCALE_MAX_M;
      const [lng2, lat2] = direct(lng, lat, random() * 2 * Math.PI, s);
      const scale = new LocalScale(lng, lat);
      const error = Math.max(0, Math.abs(Math.sqrt(scale.distanceSquared(lng2, lat2)) - s) - 0.001);
      worst = Math.max(worst, error / (s * scale.tolerance(s)));
    }
    assert.ok(worst < 0.5, `worst error ${worst} of the bound`);
    assert.ok(worst > 0.2, `the sample reaches the edges of the range (${worst})`);
  });

  it('has no bound where it was not measured', () => {
    assert.equal(new LocalScale(10, 80).tolerance(1_000), Infinity);
    assert.equal(new LocalScale(179, 10).tolerance(1_000), Infinity);
    assert.equal(new LocalScale(30, 40).tolerance(300_000), Infinity);
    assert.ok(new LocalScale(30, 40).tolerance(10_000) < 1e-3);
  });

  it('measures short distances as the geodesic does, to a few centimetres', () => {
    const scale = new LocalScale(32.85, 39.93);
    const d = Math.sqrt(scale.distanceSquared(32.86, 39.94));
    const exact = distanceM([32.85, 39.93], [32.86, 39.94]);
    assert.ok(Math.abs(d - exact) < 0.05, `${d} vs ${exact}`);
    assert.ok(Math.abs(d - exact) <= exact * scale.tolerance(exact) + 0.001);
  });
});
