import assert from 'node:assert/strict';
import { metresPerDegreeLng, pointInMultiPolygon } from '@stormhook/geometry';
import { area, rect, square } from '../test-support/shapes.js';
import type { Area } from './area.js';
import { SpatialIndex } from './spatial-index.js';

/**
 * A small synthetic country: city 1 (with a lake and an island), city 2, and city 3 whose districts
 * cover only its eastern half; neighbourhoods in part of district 102; and CTR far to the south-east.
 */
const lake = rect(29.2, 40.4, 29.3, 40.6);
const island = square(29.2, 41.2, 0.05);
const AREAS: Area[] = [
  area('city', 1, [[rect(29, 40, 30, 41), lake], [island]]),
  area('city', 2, [[rect(30, 40, 31, 41)]]),
  area('city', 3, [[rect(31, 40, 32, 41)]]),
  area('city', 9001, [[rect(33, 35, 34, 35.5)]], null, 'CTR'),
  area('district', 101, [[rect(29, 40, 29.5, 41), lake]], 1),
  area('district', 102, [[rect(29.5, 40, 30, 41)], [island]], 1),
  area('district', 201, [[rect(30, 40, 31, 41)]], 2),
  area('district', 301, [[rect(31.5, 40, 32, 41)]], 3),
  area('neighbourhood', 1001, [[rect(29.5, 40, 29.75, 40.5)]], 102),
  area('neighbourhood', 1002, [[rect(29.75, 40, 30, 40.5)]], 102),
];

describe('SpatialIndex (synthetic areas)', () => {
  const index = new SpatialIndex(AREAS);
  const ids = (lng: number, lat: number) => {
    const r = index.resolve(lng, lat);
    return [r.country, r.city?.id, r.district?.id, r.neighbourhood?.id];
  };

  it('resolves the full chain from the finest containing area', () => {
    assert.deepEqual(ids(29.6, 40.2), ['TUR', 1, 102, 1001]);
    assert.deepEqual(ids(29.9, 40.4), ['TUR', 1, 102, 1002]);
    assert.deepEqual(ids(29.7, 40.8), ['TUR', 1, 102, undefined], 'district without neighbourhood data');
    assert.deepEqual(ids(30.5, 40.5), ['TUR', 2, 201, undefined]);
    assert.deepEqual(ids(29.22, 41.22), ['TUR', 1, 102, undefined], 'island part');
    const hit = index.resolve(29.6, 40.2);
    assert.deepEqual(hit.city, { level: 'city', id: 1, name: 'city 1', distanceM: 0 });
  });

  it('resolves a point in CTR to the country with its one area', () => {
    assert.deepEqual(index.resolve(33.5, 35.2), {
      country: 'CTR',
      city: { level: 'city', id: 9001, name: 'city 9001', distanceM: 0 },
    });
  });

  it('falls back to the nearest area for a point just off the coast, with its distance', () => {
    const offshore = index.resolve(32.02, 40.5); // 0.02 deg of longitude east of city 3 and district 301
    const expected = 0.02 * metresPerDegreeLng(40.5);
    assert.equal(offshore.city?.id, 3);
    assert.equal(offshore.district?.id, 301);
    assert.ok(Math.abs(offshore.city!.distanceM - expected) < 5, `${offshore.city!.distanceM} ~ ${expected}`);
    assert.ok(Math.abs(offshore.district!.distanceM - expected) < 5);
  });

  it('gives nothing beyond the limit: open sea, far away, outside the grid, NaN', () => {
    assert.deepEqual(index.resolve(32.3, 40.5), {}, 'about 25 km offshore');
    assert.deepEqual(index.resolve(50, 50), {});
    assert.deepEqual(index.resolve(Number.NaN, 40.5), {});
    assert.deepEqual(new SpatialIndex(AREAS, { fallbackLimitM: 30_000 }).resolve(32.3, 40.5).city?.id, 3, 'a larger limit reaches it');
  });

  it('treats a lake (hole) as outside, reaching the shore only within the limit', () => {
    // Lake centre: 0.05 deg of longitude (4.2 km) from the shore.
    assert.deepEqual(ids(29.25, 40.5), ['TUR', 1, 101, undefined]);
    assert.ok(index.resolve(29.25, 40.5).district!.distanceM > 4000);
    assert.deepEqual(new SpatialIndex(AREAS, { fallbackLimitM: 1000 }).resolve(29.25, 40.5), {});
  });

  it("takes the nearest district of the containing city only, never a neighbouring city's", () => {
    // Inside city 3 (whose districts cover only its east), 4 km from district 201 of city 2.
    assert.deepEqual(ids(31.05, 40.5), ['TUR', 3, undefined, undefined]);
    // Inside city 3, 4 km from its own district 301.
    const near301 = index.resolve(31.45, 40.5);
    assert.deepEqual([near301.city?.distanceM, near301.district?.id], [0, 301]);
  });

  it('agrees with brute-force point-in-polygon on random points, at any grid resolution', () => {
    for (const cellsPerArea of [1, 3, 12]) {
      const coarse = new SpatialIndex(AREAS, { cellsPerArea, fallbackLimitM: 0 });
      let seed = 7;
      const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
      for (let i = 0; i < 5000; i++) {
        const p: [number, number] = [28.9 + random() * 3.2, 39.9 + random() * 1.4];
        const brute = (level: Area['level']) => AREAS.find((a) => a.level === level && pointInMultiPolygon(p[0], p[1], a.geometry))?.id;
        const r = coarse.resolve(p[0], p[1]);
        const expectedDistrict = brute('district');
        assert.equal(r.district?.id, expectedDistrict, `district at ${p} (cellsPerArea ${cellsPerArea})`);
        assert.equal(r.neighbourhood?.id, brute('neighbourhood'), `neighbourhood at ${p}`);
        if (expectedDistrict === undefined) assert.equal(r.city?.id, brute('city'), `city at ${p}`);
      }
    }
  });

  it('finds the areas intersecting a circle or a polygon, per level or all', () => {
    const km = 1000;
    // 5 km circle on the border of cities 1 and 2, in the south.
    assert.deepEqual(index.intersecting({ kind: 'circle', circle: { center: [30, 40.2], radiusM: 5 * km } }, 'city'), [
      { level: 'city', id: 1 },
      { level: 'city', id: 2 },
    ]);
    assert.deepEqual(
      index.intersecting({ kind: 'polygon', polygon: { exterior: rect(29.7, 40.1, 29.8, 40.2), holes: [] } }).map((r) => `${r.level}:${r.id}`),
      ['city:1', 'district:102', 'neighbourhood:1001', 'neighbourhood:1002'],
    );
    assert.deepEqual(index.intersecting({ kind: 'polygon', polygon: { exterior: rect(29.22, 40.45, 29.28, 40.55), holes: [] } }), [], 'inside the lake');
    assert.deepEqual(index.intersecting({ kind: 'circle', circle: { center: [40, 40], radiusM: km } }), []);
  });

  it('counts areas per level and copes with an empty level', () => {
    assert.deepEqual(index.counts(), { city: 4, district: 4, neighbourhood: 2 });
    const citiesOnly = new SpatialIndex(AREAS.filter((a) => a.level === 'city'));
    assert.deepEqual(citiesOnly.resolve(29.6, 40.2), { country: 'TUR', city: { level: 'city', id: 1, name: 'city 1', distanceM: 0 } });
    assert.deepEqual(new SpatialIndex([]).resolve(29.6, 40.2), {});
  });
});
