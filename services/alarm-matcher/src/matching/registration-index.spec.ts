import assert from 'node:assert/strict';
import { direct, distanceM } from '@stormhook/geometry';
import { seeded } from '@stormhook/geometry/testing';
import { Grid } from '../geometry/grid.js';
import { PreparedCircle } from '../geometry/prepared-circle.js';
import { PreparedPolygon } from '../geometry/prepared-polygon.js';
import { geometryRegistration, pointRegistration, rain, square, storm, strike } from '../test-support/fixtures.js';
import type { LightningFilter, RealtimeRegistration } from '../domain/registration.js';
import { lightningPasses } from './rules.js';
import { RegistrationIndex, type WatchedArea } from './registration-index.js';

describe('RegistrationIndex', () => {
  const grid = new Grid();
  const district = { key: 'DISTRICT:7', shape: new PreparedPolygon(square(32.5, 39.5, 0.5), grid) };
  const circleOf = (lng: number, lat: number, r: number) => ({ key: `circle:${lng},${lat},${r}`, shape: new PreparedCircle([lng, lat], r) });

  it('matches lightning inside an area and not outside it', () => {
    const index = new RegistrationIndex(grid);
    const inArea = geometryRegistration(7, { lightning: {} });
    index.upsert(inArea, district);
    assert.deepEqual(
      index.matchLightning(strike(32.7, 39.7)).map((m) => m.registration.registrationId),
      [inArea.registrationId],
    );
    assert.deepEqual(index.matchLightning(strike(33.01, 39.7)), [], 'just east of the district');
    assert.deepEqual(index.matchLightning(strike(20, 39.7)), [], 'outside the grid');
  });

  it('matches a point alarm up to its radius', () => {
    const index = new RegistrationIndex(grid);
    const point = pointRegistration(29.0, 41.0, 5_000, { lightning: {} });
    index.upsert(point, circleOf(29.0, 41.0, 5_000));
    assert.equal(index.matchLightning(strike(29.0, 41.0 + 0.044)).length, 1, 'about 4.9 km north');
    assert.equal(index.matchLightning(strike(29.0, 41.0 + 0.046)).length, 0, 'about 5.1 km north');
  });

  it('matches point alarms by geodesic distance, near the rim too (the packed hot loop and its exact band)', () => {
    const index = new RegistrationIndex(grid);
    const random = seeded(21);
    const circles = Array.from({ length: 40 }, () => {
      const lng = 27 + random() * 16;
      const lat = 36.5 + random() * 5;
      const radius = 1_000 + random() * 199_000;
      const registration = pointRegistration(lng, lat, radius, { lightning: {} });
      index.upsert(registration, circleOf(lng, lat, radius));
      return { registration, lng, lat, radius };
    });
    let inside = 0;
    for (let i = 0; i < 4_000; i++) {
      const c = circles[i % circles.length]!;
      const [lng, lat] = direct(c.lng, c.lat, random() * 2 * Math.PI, c.radius * (0.997 + random() * 0.006));
      const expected = distanceM([c.lng, c.lat], [lng, lat]) <= c.radius;
      if (expected) inside++;
      const ids = index.matchLightning(strike(lng, lat)).map((m) => m.registration.registrationId);
      assert.equal(ids.includes(c.registration.registrationId), expected, `${lng},${lat} against a ${c.radius} m circle`);
    }
    assert.ok(inside > 1_000 && inside < 3_000, 'both sides of the rim are sampled');
  });

  it('shares one area between registrations, applies each filter, and skips those without lightning', () => {
    const index = new RegistrationIndex(grid);
    const strong = geometryRegistration(7, { lightning: { peakCurrentA: 30_000 } });
    const any = geometryRegistration(7, { lightning: {} });
    const rainOnly = geometryRegistration(7, { precipitation: { intensities: [] } });
    for (const r of [strong, any, rainOnly]) index.upsert(r, district);
    assert.equal(index.areaCount, 1);
    const weak = index.matchLightning(strike(32.7, 39.7, { peakCurrentA: -20_000 })).map((m) => m.registration.registrationId);
    assert.deepEqual(weak, [any.registrationId]);
    const hard = index
      .matchLightning(strike(32.7, 39.7, { peakCurrentA: -40_000 }))
      .map((m) => m.registration.registrationId)
      .sort();
    assert.deepEqual(hard, [strong.registrationId, any.registrationId].sort());
  });

  it('forgets removed registrations and their areas, and replaces updated ones', () => {
    const index = new RegistrationIndex(grid);
    const a = pointRegistration(29.0, 41.0, 5_000, { lightning: {} });
    index.upsert(a, circleOf(29.0, 41.0, 5_000));
    index.upsert({ ...a, version: 2 }, circleOf(30.0, 41.0, 5_000));
    assert.equal(index.matchLightning(strike(29.0, 41.0)).length, 0, 'old area no longer watched');
    assert.equal(index.matchLightning(strike(30.0, 41.0)).length, 1);
    assert.equal(index.areaCount, 1);
    assert.equal(index.remove(a.registrationId), true);
    assert.equal(index.matchLightning(strike(30.0, 41.0)).length, 0);
    assert.equal(index.size, 0);
    assert.equal(index.areaCount, 0);
  });

  it('matches thunderstorms by the polygon each registration watches', () => {
    const index = new RegistrationIndex(grid);
    const cellOnly = geometryRegistration(7, { thunderstorm: { intersectsCellPolygon: true } });
    const threatOnly = geometryRegistration(7, { thunderstorm: { intersectsAffectedPolygon: true } });
    index.upsert(cellOnly, district);
    index.upsert(threatOnly, district);
    // The cell lies east of the district; its threat polygon reaches into it.
    const s = storm(square(33.1, 39.6, 0.1), square(32.9, 39.6, 0.4));
    const matches = index.matchThunderstorm(s);
    assert.deepEqual(
      matches.map((m) => m.registration.registrationId),
      [threatOnly.registrationId],
    );
    assert.deepEqual(matches[0]!.hits, { cell: false, threat: true });
    const overhead = storm(square(32.6, 39.6, 0.1), square(32.6, 39.6, 0.2));
    assert.equal(index.matchThunderstorm(overhead).length, 2);
  });

  it('matches precipitation touching the area with a listed intensity', () => {
    const index = new RegistrationIndex(grid);
    const heavy = pointRegistration(32.0, 39.0, 10_000, { precipitation: { intensities: ['HEAVY'] } });
    index.upsert(heavy, circleOf(32.0, 39.0, 10_000));
    const near = square(32.1, 38.95, 0.1); // west edge about 8.6 km east of the point
    assert.equal(index.matchPrecipitation(rain(near, { intensity: 'HEAVY' })).length, 1);
    assert.equal(index.matchPrecipitation(rain(near, { intensity: 'MODERATE' })).length, 0);
    assert.equal(index.matchPrecipitation(rain(square(32.15, 38.95, 0.1), { intensity: 'HEAVY' })).length, 0, 'about 12.9 km away');
  });

  it('agrees with a brute-force check of every registration (areas and compiled filters)', () => {
    const random = seeded(99);
    const index = new RegistrationIndex(grid);
    const polygons = [district, { key: 'DISTRICT:8', shape: new PreparedPolygon(square(32.45, 39.45, 0.13), grid) }];
    const all: Array<{ registration: RealtimeRegistration; area: WatchedArea }> = [];
    const filterOf = (): LightningFilter => {
      const f: LightningFilter = {};
      if (random() < 0.5) f.type = random() < 0.5 ? 'FLASH_CLOUD_TO_GROUND' : 'FLASH_IN_CLOUD';
      if (random() < 0.5) f.peakCurrentA = (random() < 0.5 ? -1 : 1) * random() * 40_000;
      if (random() < 0.5) f.inCloudHeightM = random() * 10_000;
      return f;
    };
    for (let i = 0; i < 400; i++) {
      const lightning = filterOf();
      if (random() < 0.3) {
        const area = polygons[i % 2]!;
        const registration = geometryRegistration(7, { lightning });
        index.upsert(registration, area);
        all.push({ registration, area });
      } else {
        const lng = 32.3 + random() * 0.8;
        const lat = 39.3 + random() * 0.8;
        const radius = 500 + random() * 15_000;
        const registration = pointRegistration(lng, lat, radius, { lightning });
        const area = circleOf(lng, lat, radius);
        index.upsert(registration, area);
        all.push({ registration, area });
      }
    }
    // Remove a few, so removal keeps the packed cells right too.
    for (const { registration } of all.splice(0, 40)) index.remove(registration.registrationId);
    for (let i = 0; i < 3_000; i++) {
      const inCloud = random() < 0.5;
      const s = strike(32.2 + random() * 1.0, 39.2 + random() * 1.0, {
        type: inCloud ? 'FLASH_IN_CLOUD' : 'FLASH_CLOUD_TO_GROUND',
        peakCurrentA: (random() < 0.5 ? -1 : 1) * random() * 50_000,
        ...(inCloud && random() < 0.8 ? { inCloudHeightM: random() * 12_000 } : {}),
      });
      const expected = all
        .filter(({ registration, area }) => area.shape.contains(s.lng, s.lat) && lightningPasses(registration.filter.lightning!, s))
        .map(({ registration }) => registration.registrationId)
        .sort();
      const actual = index
        .matchLightning(s)
        .map((m) => m.registration.registrationId)
        .sort();
      assert.deepEqual(actual, expected);
    }
  });
});
