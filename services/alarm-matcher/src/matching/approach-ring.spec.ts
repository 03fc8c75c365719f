import assert from 'node:assert/strict';
import { direct, distanceToBoundaryM } from '@stormhook/geometry';
import { Grid } from '../geometry/grid.js';
import { PreparedCircle } from '../geometry/prepared-circle.js';
import { PreparedPolygon } from '../geometry/prepared-polygon.js';
import { geometryRegistration, pointRegistration, square, strike } from '../test-support/fixtures.js';
import { RegistrationIndex } from './registration-index.js';

/** The point `km` from `from` towards `bearingDeg` (clockwise from north). */
const toward = (from: [number, number], bearingDeg: number, km: number) => direct(from[0], from[1], (bearingDeg * Math.PI) / 180, km * 1_000);

describe('lightning approach rings', () => {
  const grid = new Grid();
  const centre: [number, number] = [29.0, 41.0];
  const circle = { key: 'circle', shape: new PreparedCircle(centre, 5_000) };

  it('holds strikes beyond a point alarm and within its ring, with their distance from the rim; not inside, not beyond', () => {
    const index = new RegistrationIndex(grid);
    const ringed = pointRegistration(centre[0], centre[1], 5_000, { lightning: { approachRadiusM: 10_000 } });
    index.upsert(ringed, circle);
    for (const bearing of [0, 77, 180, 300]) {
      const [lng, lat] = toward(centre, bearing, 12);
      const [match, ...rest] = index.matchLightningRing(strike(lng, lat));
      assert.equal(rest.length, 0);
      assert.equal(match?.registration.registrationId, ringed.registrationId);
      assert.ok(Math.abs(match!.distanceM - 7_000) < 5, `bearing ${bearing}: ${match!.distanceM} m from the rim`);
      assert.deepEqual(index.matchLightningRing(strike(...toward(centre, bearing, 4.9))), [], 'inside the alarm: a strike, not an approach');
      assert.deepEqual(index.matchLightningRing(strike(...toward(centre, bearing, 15.1))), [], 'beyond the ring');
    }
    assert.equal(index.matchLightning(strike(...toward(centre, 0, 12))).length, 0, 'a ring strike is no strike of the alarm');
  });

  it('measures a district ring from its boundary, and applies the rest of the lightning filter', () => {
    const index = new RegistrationIndex(grid);
    const district = { key: 'DISTRICT:7', shape: new PreparedPolygon(square(32.5, 39.5, 0.5), grid) };
    const ringed = geometryRegistration(7, { lightning: { type: 'FLASH_IN_CLOUD', approachRadiusM: 20_000 } });
    index.upsert(ringed, district);
    const east = strike(33.1, 39.7, { type: 'FLASH_IN_CLOUD' });
    const [match] = index.matchLightningRing(east);
    assert.ok(match, 'about 8.6 km east of the boundary');
    assert.ok(Math.abs(match.distanceM - distanceToBoundaryM([33.1, 39.7], square(32.5, 39.5, 0.5))) < 1e-6);
    assert.deepEqual(index.matchLightningRing(strike(33.1, 39.7, { type: 'FLASH_CLOUD_TO_GROUND' })), [], 'wrong type');
    assert.deepEqual(index.matchLightningRing(strike(33.4, 39.7, { type: 'FLASH_IN_CLOUD' })), [], 'about 34 km east: beyond the ring');
  });

  it('forgets a ring when the registration drops it or goes', () => {
    const index = new RegistrationIndex(grid);
    const ringed = pointRegistration(centre[0], centre[1], 5_000, { lightning: { approachRadiusM: 10_000 } });
    index.upsert(ringed, circle);
    const near = strike(...toward(centre, 90, 8));
    assert.equal(index.matchLightningRing(near).length, 1);
    index.upsert({ ...ringed, filter: { lightning: {} } }, circle);
    assert.deepEqual(index.matchLightningRing(near), [], 'the ring was dropped by an update');
    index.upsert(ringed, circle);
    index.remove(ringed.registrationId);
    assert.deepEqual(index.matchLightningRing(near), [], 'unregistered');
  });
});
