import assert from 'node:assert/strict';
import { LocalProjection } from './azimuthal-projection.js';
import { circleBBox } from './bbox.js';
import { direct, distanceM, inverse } from './geodesic.js';

describe('geodesics on the WGS 84 ellipsoid', () => {
  it("matches Vincenty's published test line (Flinders Peak to Buninyong: 54,972.271 m)", () => {
    const flinders = { lng: 144 + 25 / 60 + 29.5244 / 3600, lat: -(37 + 57 / 60 + 3.7203 / 3600) };
    const buninyong = { lng: 143 + 55 / 60 + 35.3839 / 3600, lat: -(37 + 39 / 60 + 10.1561 / 3600) };
    const { distanceM: d, azimuth } = inverse(flinders.lng, flinders.lat, buninyong.lng, buninyong.lat);
    assert.ok(Math.abs(d - 54_972.271) < 0.001, `distance ${d}`);
    const azimuthDeg = (azimuth * 180) / Math.PI + 360;
    assert.ok(Math.abs(azimuthDeg - (306 + 52 / 60 + 5.37 / 3600)) < 1e-4, `azimuth ${azimuthDeg}`);
  });

  it('measures a degree of latitude at the equator and at the pole as the ellipsoid has them', () => {
    assert.ok(Math.abs(distanceM([0, 0], [0, 1]) - 110_574.4) < 0.5);
    assert.ok(Math.abs(distanceM([0, 89], [0, 90]) - 111_693.9) < 0.5);
    assert.equal(distanceM([32.85, 39.93], [32.85, 39.93]), 0);
  });

  it('inverts direct: walking 150 km then measuring back gives 150 km', () => {
    for (const azimuthDeg of [0, 37, 90, 181, 270, 333]) {
      const [lng, lat] = direct(32.85, 39.93, (azimuthDeg * Math.PI) / 180, 150_000);
      assert.ok(Math.abs(distanceM([32.85, 39.93], [lng, lat]) - 150_000) < 1e-4); // a tenth of a millimetre
    }
  });

  it('projects so that the distance from the centre is the geodesic distance, and back', () => {
    const projection = new LocalProjection(28.97, 41.01);
    const [x, y] = projection.forward(29.5, 40.6);
    assert.ok(Math.abs(Math.hypot(x, y) - distanceM([28.97, 41.01], [29.5, 40.6])) < 1e-6);
    const [lng, lat] = projection.backward(x, y);
    assert.ok(Math.abs(lng - 29.5) < 1e-9 && Math.abs(lat - 40.6) < 1e-9);
  });

  it('bounds a circle with a box that holds every point of it', () => {
    const box = circleBBox(33, 39, 200_000);
    for (let a = 0; a < 360; a += 5) {
      const [lng, lat] = direct(33, 39, (a * Math.PI) / 180, 200_000);
      assert.ok(lng >= box.minLng && lng <= box.maxLng && lat >= box.minLat && lat <= box.maxLat, `azimuth ${a}`);
    }
  });
});
