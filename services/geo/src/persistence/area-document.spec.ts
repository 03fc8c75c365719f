import assert from 'node:assert/strict';
import { toCoordinates } from '../domain/geometry/geojson-coordinates.js';
import { areaContentHash } from '../import/content-hash.js';
import { area, rect } from '../test-support/shapes.js';
import { fromDocument, toDocumentFields, type AreaDocument } from './area-document.js';

describe('area documents and content hashes', () => {
  const kadikoy = area('district', 1421, [[rect(29, 40.9, 29.1, 41)], [rect(29.2, 40.9, 29.3, 41), rect(29.22, 40.92, 29.24, 40.94)]], 34);

  it('round-trips an area, keyed by level:id, with the geometry as GeoJSON text', () => {
    const fields = toDocumentFields(kadikoy, 'h');
    assert.equal(fields._id, 'district:1421');
    assert.deepEqual(JSON.parse(fields.geometryGeoJson), { type: 'MultiPolygon', coordinates: toCoordinates(kadikoy.geometry) });
    assert.deepEqual(fromDocument(fields), kadikoy);
  });

  it('explains why a stored document is unusable', () => {
    const good: Partial<AreaDocument> = toDocumentFields(kadikoy, 'h');
    assert.equal(fromDocument({ ...good, level: 'village' as never }), 'unknown level "village"');
    assert.equal(fromDocument({ ...good, country: 'GRC' as never }), 'unknown country "GRC"');
    assert.equal(fromDocument({ ...good, id: 1.5 }), 'invalid id 1.5');
    assert.equal(fromDocument({ ...good, geometryGeoJson: '{' }), 'geometryGeoJson is not JSON');
    assert.equal(
      fromDocument({
        ...good,
        geometryGeoJson: JSON.stringify({
          type: 'Polygon',
          coordinates: [
            [
              [29, 41],
              [29.1, 41],
              [29, 41],
            ],
          ],
        }),
      }),
      'geometry polygon 0 ring 0 has 3 positions, needs at least 4',
    );
  });

  it('hashes content: equal areas hash equal, any change of name, parent or geometry changes it', () => {
    const hash = areaContentHash(kadikoy);
    assert.match(hash, /^[0-9a-f]{64}$/);
    assert.equal(areaContentHash(structuredClone(kadikoy)), hash);
    assert.notEqual(areaContentHash({ ...kadikoy, name: 'Kadikoy' }), hash);
    assert.notEqual(areaContentHash({ ...kadikoy, parentId: 35 }), hash);
    assert.notEqual(areaContentHash({ ...kadikoy, geometry: [{ exterior: rect(29, 40.9, 29.1, 41.000001), holes: [] }] }), hash);
  });
});
