import assert from 'node:assert/strict';
import type { Ring } from '@stormhook/geometry';
import { rect } from '../test-support/shapes.js';
import { BOUNDARY_FILES, type BoundaryFileSpec } from './boundary-files.js';
import { validateFeature, type FeatureOutcome } from './validate-feature.js';

function spec(file: string): BoundaryFileSpec {
  const found = BOUNDARY_FILES.find((f) => f.file.startsWith(file));
  if (!found) throw new Error(file);
  return found;
}

const PROVINCES = spec('tur_adm1');
const DISTRICTS = spec('tur_adm2');
const NEIGHBOURHOODS = spec('tur_adm4');
const CTR = spec('ctr_');
const ISTANBUL = rect(28, 40.8, 29.9, 41.6);

function check(
  s: BoundaryFileSpec,
  properties: Record<string, unknown> | null,
  geometry: unknown = { type: 'Polygon', coordinates: [ISTANBUL] },
  accepted = new Map<number, number>(),
): FeatureOutcome {
  return validateFeature({ type: 'Feature', properties, geometry }, { spec: s, accepted, parentExists: (id) => id === 34 || id === 1421 });
}

const reason = (outcome: FeatureOutcome) => (outcome.ok ? 'accepted' : outcome.reason);

describe('validateFeature (the mapping of each file)', () => {
  it('maps a province: id, name, plate code = id, no parent', () => {
    const outcome = check(PROVINCES, { id: 34, code: '34', name: ' İstanbul ', country: 'TUR' });
    assert.ok(outcome.ok);
    assert.deepEqual(outcome.area, {
      country: 'TUR',
      level: 'city',
      id: 34,
      name: 'İstanbul',
      parentId: null,
      licensePlateCode: 34,
      geometry: [{ exterior: ISTANBUL, holes: [] }],
    });
  });

  it('maps a district (parent = province_id) and a neighbourhood (wof_id, parent = district_id)', () => {
    const district = check(DISTRICTS, { id: 1421, name: 'Kadıköy', province_id: 34, country: 'TUR' });
    assert.ok(district.ok);
    assert.deepEqual([district.area.level, district.area.parentId, district.area.licensePlateCode], ['district', 34, null]);
    const neighbourhood = check(NEIGHBOURHOODS, { wof_id: 890461301, name: 'Osmanağa', district_id: 1421 });
    assert.ok(neighbourhood.ok);
    assert.deepEqual([neighbourhood.area.id, neighbourhood.area.parentId], [890461301, 1421]);
    const byString = check(NEIGHBOURHOODS, { wof_id: '890461301', name: '', wof_name: 'Osmanaga', district_id: '1421' });
    assert.ok(byString.ok && byString.area.id === 890461301 && byString.area.name === 'Osmanaga', 'string ids and the fallback name');
  });

  it('maps the CTR outline to the fixed id 9001 with no plate code', () => {
    const ring: Ring = rect(33, 35.1, 34, 35.6);
    const outcome = check(CTR, { id: 'CTR', name: 'Kuzey Kıbrıs Türk Cumhuriyeti' }, { type: 'MultiPolygon', coordinates: [[ring]] });
    assert.ok(outcome.ok);
    assert.deepEqual([outcome.area.id, outcome.area.country, outcome.area.level, outcome.area.licensePlateCode], [9001, 'CTR', 'city', null]);
  });

  it('rejects bad ids, names, countries and parents with the reason', () => {
    assert.equal(reason(check(PROVINCES, { id: 'x', name: 'A' })), 'property id must be an integer id, got "x"');
    assert.equal(reason(check(PROVINCES, null)), 'property id must be an integer id, got null');
    assert.equal(reason(check(PROVINCES, { id: 82, name: 'A' })), 'id 82 is outside 1..81');
    assert.equal(reason(check(PROVINCES, { id: 34, name: '  ' })), 'no name (properties name are empty)');
    assert.equal(reason(check(PROVINCES, { id: 34, name: 'A', country: 'GRC' })), 'property country is "GRC", expected TUR');
    assert.equal(
      reason(check(NEIGHBOURHOODS, { wof_id: 1, name: 'Bosphorus', district_id: null })),
      'no parent: property district_id is null and no district lies under the feature; a neighbourhood must belong to a district',
    );
    assert.equal(reason(check(DISTRICTS, { id: 1101, name: 'A', province_id: 35 })), 'parent city 35 (property province_id) does not exist');
    const outcome = check(PROVINCES, { id: 34, name: 'A' }, undefined, new Map([[34, 3]]));
    assert.deepEqual(outcome, { ok: false, id: 34, reason: 'duplicate id 34 (already used by feature 3)' });
  });

  it('rejects geometry that is not a valid polygon in the country', () => {
    const props = { id: 34, name: 'A' };
    const polygon = (...rings: unknown[]) => ({ type: 'Polygon', coordinates: rings });
    assert.equal(reason(check(PROVINCES, props, null)), 'has no geometry');
    assert.equal(reason(check(PROVINCES, props, { type: 'Point', coordinates: [29, 41] })), 'geometry type "Point" is not Polygon or MultiPolygon');
    assert.equal(
      reason(
        check(
          PROVINCES,
          props,
          polygon([
            [29, 41],
            [29.1, 41],
            [29, 41],
          ]),
        ),
      ),
      'polygon 0 ring 0 has 3 positions, needs at least 4',
    );
    assert.equal(
      reason(
        check(
          PROVINCES,
          props,
          polygon([
            [29, 41],
            [29.1, 41],
            [29.1, 41.1],
            [29, 41.1],
          ]),
        ),
      ),
      'polygon 0 ring 0 is not closed (first position differs from last)',
    );
    assert.equal(
      reason(
        check(
          PROVINCES,
          props,
          polygon([
            [41, 29],
            [41.1, 29],
            [41.1, 29.1],
            [41, 29],
          ]),
        ),
      ),
      "polygon 0 ring 0 position 0 [41, 29] is outside the country's envelope [25, 35.5, 45.5, 42.5] (lat/lng swapped?)",
    );
    assert.equal(
      reason(
        check(
          PROVINCES,
          props,
          polygon([
            [29, 41],
            [190, 41],
            [29.1, 41.1],
            [29, 41],
          ]),
        ),
      ),
      'polygon 0 ring 0 position 1: longitude 190 is outside -180..180',
    );
    assert.equal(
      reason(
        check(
          PROVINCES,
          props,
          polygon([
            [29, 41],
            ['29', 41],
            [29.1, 41.1],
            [29, 41],
          ]),
        ),
      ),
      'polygon 0 ring 0 position 1 is not [lng, lat]',
    );
    assert.equal(
      reason(
        check(PROVINCES, props, {
          type: 'MultiPolygon',
          coordinates: [
            [ISTANBUL],
            [
              ISTANBUL,
              [
                [29, 41],
                [29, 41],
                [29, 41],
                [29, 41],
              ],
            ],
          ],
        }),
      ),
      'polygon 1 ring 1 has zero area',
    );
    assert.equal(reason(check(PROVINCES, { id: 34, name: 'A' }, { type: 'Feature' })), 'geometry type "Feature" is not Polygon or MultiPolygon');
  });

  it('drops a third (altitude) member of positions', () => {
    const ring = ISTANBUL.map(([x, y]) => [x, y, 120]);
    const outcome = check(PROVINCES, { id: 34, name: 'A' }, { type: 'Polygon', coordinates: [ring] });
    assert.ok(outcome.ok);
    assert.deepEqual(outcome.area.geometry, [{ exterior: ISTANBUL, holes: [] }]);
  });
});
