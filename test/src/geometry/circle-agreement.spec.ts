import assert from 'node:assert/strict';
import { PreparedCircle } from '@stormhook/alarm-matcher';
import { direct, distanceM, expandBBox, pointInMultiPolygon, type Position } from '@stormhook/geometry';
import { seeded } from '@stormhook/geometry/testing';
import { cropToCircle } from '@stormhook/query';

/**
 * Issue 16: "within the radius" of a point alarm means the same in the alarm that fires (the
 * matcher's PreparedCircle) and in the data a customer reads (the query's crop to the circle).
 *
 * The crop draws the circle's arc as chords between vertices at most 1° of azimuth apart, placed
 * a millimetre inside the radius, so the cropped polygon is inscribed in the true disc: it can
 * only leave out points, and only those within the chords' sagitta of the rim,
 * r (1 - cos 0.5°) = 3.8e-5 r (7.6 m at 200 km), plus that millimetre. EPSILON allows a little more.
 * Everywhere else both must give the geodesic answer.
 */
const EPSILON = (radiusM: number) => radiusM * 5e-5 + 0.01;

const CIRCLES = 1_000;
const POINTS_PER_CIRCLE = 100;

describe("the matcher's circle and the query's crop agree", () => {
  it(`on ${(CIRCLES * POINTS_PER_CIRCLE).toLocaleString('en')} random points and circles (seeded)`, function () {
    this.timeout(120_000);
    const random = seeded(16);
    let cases = 0;
    let inside = 0;
    let nearRim = 0;
    let excusedByCrop = 0;
    for (let c = 0; c < CIRCLES; c++) {
      const center: Position = [26 + random() * 19, 36 + random() * 6];
      // Log-uniform from 100 m to the 200 km the contract allows.
      const radiusM = 100 * Math.pow(2_000, random());
      const circle = new PreparedCircle(center, radiusM);
      // A square well beyond the circle: its crop is the disc itself, as the query draws it.
      const box = expandBBox(circle.bbox, radiusM * 0.1);
      const square: Position[] = [
        [box.minLng, box.minLat],
        [box.maxLng, box.minLat],
        [box.maxLng, box.maxLat],
        [box.minLng, box.maxLat],
        [box.minLng, box.minLat],
      ];
      const cropped = cropToCircle([{ exterior: square, holes: [] }], { center, radiusM });
      for (let i = 0; i < POINTS_PER_CIRCLE; i++) {
        // Half the points anywhere near the circle, half within 2 % of its rim, where models part.
        const distance = i % 2 === 0 ? radiusM * 1.3 * Math.sqrt(random()) : radiusM * (0.98 + 0.04 * random());
        const [lng, lat] = direct(center[0], center[1], random() * 2 * Math.PI, distance);
        const d = distanceM(center, [lng, lat]);
        const matcher = circle.contains(lng, lat);
        const query = pointInMultiPolygon(lng, lat, cropped);
        cases++;
        if (matcher) inside++;
        if (Math.abs(d - radiusM) < radiusM * 0.005) nearRim++;
        // The matcher's answer is the geodesic one, exactly.
        assert.equal(matcher, d <= radiusM, `matcher: ${lng},${lat} is ${d} m from ${center.join(',')}, radius ${radiusM}`);
        if (matcher === query) continue;
        // The crop may only leave out points of the disc's outermost sliver.
        assert.ok(matcher && !query && d > radiusM - EPSILON(radiusM), `crop: ${lng},${lat} is ${d} m from ${center.join(',')}, radius ${radiusM}`);
        excusedByCrop++;
      }
    }
    assert.equal(cases, CIRCLES * POINTS_PER_CIRCLE);
    assert.ok(inside > cases * 0.3 && inside < cases * 0.8, `${inside} inside: both sides are sampled`);
    assert.ok(nearRim > cases * 0.05, `${nearRim} within 0.5 % of the rim`);
    assert.ok(excusedByCrop < cases * 0.001, `${excusedByCrop} points excused by the crop's chords`);
  });
});
