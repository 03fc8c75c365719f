import assert from 'node:assert/strict';
import { bboxContains, bboxOfMultiPolygon, pointInMultiPolygon } from '@stormhook/geometry';
import { createLogger } from '@stormhook/logger';
import { parseBoundaries } from '../import/parse-boundaries.js';
import { BLACK_SEA_300_KM, KNOWN_POINTS, LEFKOSA, NO_SHARED_DATA, sharedGeoData } from '../test-support/shared-data.js';
import type { Area } from './area.js';
import { SpatialIndex } from './spatial-index.js';

/** The index over the real boundary files (no database): known places, and agreement with brute force. */
describe('SpatialIndex on the shared boundary data', function () {
  const dir = sharedGeoData();
  let areas: Area[] = [];
  let index: SpatialIndex;

  before(async function () {
    if (!dir) {
      console.warn(`      ${NO_SHARED_DATA}`);
      this.skip();
    }
    areas = (await parseBoundaries(dir!, createLogger({ service: 'geo-spec', level: 'silent' }))).areas;
    index = new SpatialIndex(areas);
  });

  it('resolves the known places', () => {
    for (const [name, known] of Object.entries(KNOWN_POINTS)) {
      const r = index.resolve(known.at[0], known.at[1]);
      assert.deepEqual([r.country, r.city?.id, r.district?.id, r.district?.distanceM], ['TUR', known.city, known.district, 0], name);
    }
    const kadikoy = index.resolve(...KNOWN_POINTS.kadikoy.at);
    assert.ok(kadikoy.neighbourhood, 'Kadıköy has neighbourhood polygons');
    assert.equal(areas.find((a) => a.level === 'neighbourhood' && a.id === kadikoy.neighbourhood!.id)?.parentId, 1421);
    assert.deepEqual(index.resolve(...LEFKOSA), { country: 'CTR', city: { level: 'city', id: 9001, name: 'Kuzey Kıbrıs Türk Cumhuriyeti', distanceM: 0 } });
    assert.deepEqual(index.resolve(...BLACK_SEA_300_KM), {});
    assert.deepEqual(index.resolve(31.0, 36.0), {}, 'Mediterranean, 90 km off Antalya, inside the grid');
  });

  it('agrees with a brute-force point-in-polygon over every district', () => {
    const districts = areas.filter((a) => a.level === 'district').map((a) => ({ a, box: bboxOfMultiPolygon(a.geometry) }));
    let seed = 42;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    let inside = 0;
    for (let i = 0; i < 3000; i++) {
      const p: [number, number] = [25.7 + random() * 19.1, 35.8 + random() * 6.3];
      const brute = districts.find(({ a, box }) => bboxContains(box, p[0], p[1]) && pointInMultiPolygon(p[0], p[1], a.geometry))?.a.id;
      const r = index.resolve(p[0], p[1]);
      if (brute !== undefined) {
        inside++;
        // Inside a neighbourhood the district is the neighbourhood's parent; elsewhere it is the containing one.
        if (!r.neighbourhood) assert.equal(r.district?.id, brute, `district at ${p}`);
        assert.equal(r.district?.distanceM, 0);
      } else if (r.district) {
        assert.ok(r.district.distanceM > 0 && r.district.distanceM < 10_000, `fallback at ${p}`);
      }
    }
    assert.ok(inside > 1500, `${inside} of 3000 random points fall on Turkish land`);
  });
});
