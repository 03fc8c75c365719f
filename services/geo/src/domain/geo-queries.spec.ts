import assert from 'node:assert/strict';
import type { Position, Ring } from '@stormhook/geometry';
import { area, rect } from '../test-support/shapes.js';
import type { Area } from './area.js';
import type { GeoResult } from './geo-error.js';
import { buildGeoSnapshot } from './geo-snapshot.js';
import { GeoQueries } from './geo-queries.js';
import { countPositions } from './geometry/simplify.js';

/** A wiggly ring (many vertices) so that simplification has something to remove. */
function wiggly(minLng: number, minLat: number, maxLng: number, maxLat: number): Ring {
  const ring: Position[] = [];
  for (let i = 0; i <= 100; i++) ring.push([minLng + ((maxLng - minLng) * i) / 100, minLat + (i % 2) * 0.0001]);
  ring.push([maxLng, maxLat], [minLng, maxLat], [minLng, minLat]);
  return ring;
}

const AREAS: Area[] = [
  area('city', 34, [[wiggly(28, 40.8, 30, 41.5)]]),
  area('city', 6, [[rect(32, 39, 33.5, 40.5)]]),
  area('city', 9001, [[rect(33, 35, 34, 35.5)]], null, 'CTR'),
  area('district', 1421, [[rect(29, 40.9, 29.1, 41)]], 34),
  area('neighbourhood', 890461301, [[rect(29.02, 40.98, 29.03, 40.99)]], 1421),
];

const invalidField = (r: GeoResult<unknown>) => (!r.ok && r.error.kind === 'invalid-argument' ? r.error.field : undefined);

describe('GeoQueries', () => {
  const queries = new GeoQueries(buildGeoSnapshot(AREAS));

  it('lists the supported countries with their counts', () => {
    assert.deepEqual(queries.listCountries(), [
      { code: 'TUR', name: 'Türkiye', cityCount: 2, districtCount: 1, neighbourhoodCount: 1 },
      { code: 'CTR', name: 'Kuzey Kıbrıs Türk Cumhuriyeti', cityCount: 1, districtCount: 0, neighbourhoodCount: 0 },
    ]);
  });

  it('lists cities by id; CTR has a null licence plate code; the code is case-insensitive', () => {
    const tur = queries.listCities('TUR');
    assert.ok(tur.ok);
    assert.deepEqual(
      tur.value.map((c) => [c.id, c.licensePlateCode]),
      [
        [6, 6],
        [34, 34],
      ],
    );
    const ctr = queries.listCities('ctr');
    assert.ok(ctr.ok);
    assert.deepEqual(
      ctr.value.map((c) => [c.id, c.name, c.licensePlateCode, c.country]),
      [[9001, 'city 9001', null, 'CTR']],
    );
  });

  it('refuses an unknown country code, naming the supported values', () => {
    const result = queries.listCities('GRC');
    assert.deepEqual(result, {
      ok: false,
      error: {
        kind: 'unsupported-country',
        countryCode: 'GRC',
        supported: ['TUR', 'CTR'],
        message: 'unsupported country code "GRC": supported values are TUR, CTR',
      },
    });
  });

  it('returns an area with its parents, or not-found', () => {
    const n = queries.getNeighbourhood(890461301);
    assert.ok(n.ok);
    assert.equal(n.value.district.id, 1421);
    assert.equal(n.value.district.city.id, 34);
    assert.equal(n.value.district.city.licensePlateCode, 34);
    const d = queries.getDistrict(1421);
    assert.ok(d.ok && d.value.city.name === 'city 34');
    const c = queries.getCity(6);
    assert.ok(c.ok && c.value.geometry === AREAS[1]!.geometry, 'unsimplified geometry is the stored one');

    assert.deepEqual(queries.getDistrict(99), { ok: false, error: { kind: 'not-found', level: 'district', ids: [99], message: 'district 99 not found' } });
    assert.equal(queries.getCity(1421).ok, false, 'ids are per level');
    assert.equal(queries.getNeighbourhood(1).ok, false);
  });

  it('simplifies geometry on request, and validates the tolerance', () => {
    const full = queries.getCity(34);
    const light = queries.getCity(34, { simplifyToleranceM: 100 });
    assert.ok(full.ok && light.ok);
    assert.equal(countPositions(full.value.geometry), 104);
    assert.equal(countPositions(light.value.geometry), 5, 'the 11 m wiggles disappear');
    const again = queries.getCity(34, { simplifyToleranceM: 100 });
    assert.ok(again.ok && again.value.geometry === light.value.geometry, 'cached');
    const bad = queries.listCities('TUR', { simplifyToleranceM: -1 });
    assert.equal(invalidField(bad), 'simplifyTolerance');
    assert.equal(queries.getDistrict(1421, { simplifyToleranceM: Number.NaN }).ok, false);
  });

  it('resolves points and validates coordinates', () => {
    const inside = queries.resolvePoint(29.025, 40.985);
    assert.ok(inside.ok);
    assert.deepEqual([inside.value.country, inside.value.city?.id, inside.value.district?.id, inside.value.neighbourhood?.id], ['TUR', 34, 1421, 890461301]);
    assert.deepEqual(queries.resolvePoint(0, 0), { ok: true, value: {} });
    const bad = queries.resolvePoint(200, 40);
    assert.ok(!bad.ok && bad.error.kind === 'invalid-argument' && /longitude 200 is outside -180..180/.test(bad.error.message));
  });

  it('returns polygons of a set of areas in request order, naming the unknown ones', () => {
    const found = queries.polygonsOf([
      { level: 'district', id: 1421 },
      { level: 'city', id: 9001 },
    ]);
    assert.ok(found.ok);
    assert.deepEqual(
      found.value.map((a) => [a.level, a.id, a.name]),
      [
        ['district', 1421, 'district 1421'],
        ['city', 9001, 'city 9001'],
      ],
    );
    const missing = queries.polygonsOf([
      { level: 'city', id: 34 },
      { level: 'city', id: 1 },
      { level: 'city', id: 2 },
    ]);
    assert.ok(!missing.ok && missing.error.kind === 'not-found');
    assert.equal(missing.error.message, 'city areas not found: 1, 2');
  });

  it('finds intersecting areas and validates the query shape', () => {
    const around = queries.intersecting({ kind: 'circle', circle: { center: [29.025, 40.985], radiusM: 100 } });
    assert.ok(around.ok);
    assert.deepEqual(
      around.value.map((r) => `${r.level}:${r.id}`),
      ['city:34', 'district:1421', 'neighbourhood:890461301'],
    );
    const cities = queries.intersecting({ kind: 'polygon', polygon: { exterior: rect(29.5, 40, 32.5, 41), holes: [] } }, 'city');
    assert.ok(cities.ok);
    assert.deepEqual(cities.value, [
      { level: 'city', id: 6 },
      { level: 'city', id: 34 },
    ]);

    const tooBig = queries.intersecting({ kind: 'circle', circle: { center: [29, 41], radiusM: 200_001 } });
    assert.equal(invalidField(tooBig), 'circle.radius');
    const open = queries.intersecting({
      kind: 'polygon',
      polygon: {
        exterior: [
          [29, 41],
          [30, 41],
          [30, 42],
          [29, 42],
        ],
        holes: [],
      },
    });
    assert.equal(invalidField(open), 'polygon.exterior');
    assert.ok(!open.ok && /not closed/.test(open.error.message));
    const badHole = queries.intersecting({
      kind: 'polygon',
      polygon: {
        exterior: rect(29, 41, 30, 42),
        holes: [
          [
            [29, 91],
            [29, 41],
            [30, 41],
            [29, 91],
          ],
        ],
      },
    });
    assert.equal(invalidField(badHole), 'polygon.holes[0]');
  });
});
