import assert from 'node:assert/strict';
import { circleTouchesMultiPolygon, distanceToMultiPolygonM } from './boundary-distance.js';
import { direct, distanceM } from './geodesic.js';
import { GeodesicCircle } from './geodesic-circle.js';
import { seeded } from './testing/shapes.js';

describe('GeodesicCircle', () => {
  it('contains exactly the points within the geodesic radius, near the rim too', () => {
    const random = seeded(17);
    let nearRim = 0;
    for (let i = 0; i < 20_000; i++) {
      const center = [26 + random() * 19, 36 + random() * 6] as const;
      const radiusM = 1_000 + random() * 199_000;
      const circle = new GeodesicCircle(center, radiusM);
      // Points at 0.98 to 1.02 radii: the band where a flat metric would go wrong.
      const [lng, lat] = direct(center[0], center[1], random() * 2 * Math.PI, radiusM * (0.98 + random() * 0.04));
      const d = distanceM(center, [lng, lat]);
      if (Math.abs(d - radiusM) < radiusM * 0.002) nearRim++;
      assert.equal(circle.contains(lng, lat), d <= radiusM, `${lng},${lat} at ${d} m of ${radiusM}`);
    }
    assert.ok(nearRim > 1_000, 'the sample exercises the exact test');
  });

  it('includes its rim and its centre', () => {
    const circle = new GeodesicCircle([32.85, 39.92], 10_000);
    const [lng, lat] = direct(32.85, 39.92, 1, 10_000 - 1e-6);
    assert.equal(circle.contains(lng, lat), true);
    assert.equal(circle.contains(32.85, 39.92), true);
    assert.ok(Math.abs(circle.distanceM(lng, lat) - 10_000) < 1e-5);
  });

  it('measures every point exactly outside the range of the flat screen', () => {
    const polar = new GeodesicCircle([10, 80], 50_000);
    assert.equal(polar.innerSquared, -1);
    const [lng, lat] = direct(10, 80, 2, 49_999);
    assert.equal(polar.contains(lng, lat), true);
    const [lng2, lat2] = direct(10, 80, 2, 50_001);
    assert.equal(polar.contains(lng2, lat2), false);
  });

  it('has a box that holds the whole disc', () => {
    const circle = new GeodesicCircle([35, 41], 200_000);
    for (let a = 0; a < 360; a += 3) {
      const [lng, lat] = direct(35, 41, (a * Math.PI) / 180, 200_000);
      const b = circle.bbox;
      assert.ok(lng >= b.minLng && lng <= b.maxLng && lat >= b.minLat && lat <= b.maxLat, `azimuth ${a}`);
    }
  });

  it('touches a polygon exactly when circleTouchesMultiPolygon does, with edges passing near the rim', () => {
    const random = seeded(23);
    let nearRim = 0;
    let touching = 0;
    for (let i = 0; i < 5_000; i++) {
      const center = [26 + random() * 19, 36 + random() * 6] as const;
      const radiusM = 1_000 + random() * 49_000;
      const circle = new GeodesicCircle(center, radiusM);
      // A triangle whose nearest edge lies 0.97 to 1.03 radii away, its far corners up to 6 radii out.
      const bearing = random() * 2 * Math.PI;
      const mid = direct(center[0], center[1], bearing, radiusM * (0.97 + random() * 0.06));
      const a = direct(mid[0], mid[1], bearing + Math.PI / 2, radiusM * (0.2 + random() * 3));
      const b = direct(mid[0], mid[1], bearing - Math.PI / 2, radiusM * (0.2 + random() * 3));
      const far = direct(center[0], center[1], bearing, radiusM * (2 + random() * 4));
      const triangle = [{ exterior: [a, far, b, a], holes: [] }];
      const d = distanceToMultiPolygonM(center, triangle);
      if (Math.abs(d - radiusM) < radiusM * 0.002) nearRim++;
      const expected = circleTouchesMultiPolygon(circle, triangle);
      if (expected) touching++;
      assert.equal(circle.touchesMultiPolygon(triangle), expected, `radius ${radiusM}, edge at ${d} m`);
    }
    assert.ok(nearRim > 100 && touching > 1_000 && touching < 4_000, `near the rim ${nearRim}, touching ${touching}`);
  });
});
