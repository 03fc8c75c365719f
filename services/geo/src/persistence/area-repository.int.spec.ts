import assert from 'node:assert/strict';
import { createLogger } from '@stormhook/logger';
import { connectMongo, databaseName, type MongoHandle } from '@stormhook/mongo';
import { testInfra, uniqueName } from '@stormhook/testing';
import { buildGeoSnapshot } from '../domain/geo-snapshot.js';
import { GeoQueries } from '../domain/geo-queries.js';
import { importBoundaries } from '../import/import-boundaries.js';
import { collection, feature, tempSource } from '../test-support/geojson.js';
import { rect } from '../test-support/shapes.js';
import { BLACK_SEA_300_KM, KNOWN_POINTS, LEFKOSA, NO_SHARED_DATA, sharedGeoData } from '../test-support/shared-data.js';
import { AREAS_COLLECTION, AreaRepository, IMPORT_RUNS_COLLECTION } from './area-repository.js';

/** The real import into FerretDB/MongoDB, the index built from what was stored, and the queries on top. */
describe('geo import and repository (real FerretDB/MongoDB, shared data)', function () {
  const dir = sharedGeoData();
  const logger = createLogger({ service: 'geo-int', level: 'silent' });
  const dbName = databaseName('geo', uniqueName('it'));
  let mongo: MongoHandle | undefined;
  let repo: AreaRepository;

  before(async function () {
    if (!dir) {
      console.warn(`      ${NO_SHARED_DATA}`);
      this.skip();
    }
    mongo = await connectMongo({ url: testInfra().mongoUrl, dbName, appName: 'geo-int-spec', logger });
    repo = await AreaRepository.open(mongo.db, logger);
  });

  after(async () => {
    if (!mongo) return;
    await mongo.db.dropDatabase();
    await mongo.close();
  });

  it('imports the shared data: 81 cities, 973 districts, 739 neighbourhoods, 1 CTR area', async function () {
    this.timeout(60_000);
    const started = performance.now();
    const report = await importBoundaries(dir!, repo, logger);
    const ms = performance.now() - started;
    console.log(`      first import: ${report.accepted} areas in ${ms.toFixed(0)} ms`);
    assert.deepEqual(
      report.files.map((f) => [f.file, f.features, f.accepted]),
      [
        ['tur_adm1_provinces.geojson', 81, 81],
        ['ctr_outline_naturalearth.geojson', 1, 1],
        ['tur_adm2_districts.geojson', 973, 973],
        ['tur_adm4_istanbul_wof_sample.geojson', 739, 739],
      ],
    );
    assert.deepEqual(report.rejected, []);
    assert.deepEqual([report.accepted, report.inserted, report.updated, report.unchanged], [1794, 1794, 0, 0]);
    assert.equal(await repo.count(), 1794);
    // The four WOF features without a district_id (two water bodies, two coastal mahalle) were given
    // the İstanbul district under them.
    const parentless = await mongo!.db
      .collection(AREAS_COLLECTION)
      .find({ level: 'neighbourhood', id: { $in: [1813328481, 1813328563, 1813328567, 85930081] } })
      .toArray();
    assert.equal(parentless.length, 4);
    for (const doc of parentless) assert.ok(Number(doc['parentId']) >= 1101 && Number(doc['parentId']) <= 2107, String(doc['parentId']));
    const [run] = await repo.recentImportRuns(1);
    assert.deepEqual([run?.accepted, run?.inserted, run?.rejectedCount, run?.rejected.length], [1794, 1794, 0, 0]);
  });

  it('re-importing the same data changes nothing', async function () {
    this.timeout(30_000);
    const before = await mongo!.db
      .collection(AREAS_COLLECTION)
      .find({}, { projection: { level: 1, id: 1, updatedAt: 1 } })
      .toArray();
    const report = await importBoundaries(dir!, repo, logger);
    assert.deepEqual([report.accepted, report.unchanged, report.inserted, report.updated], [1794, 1794, 0, 0]);
    const after = await mongo!.db
      .collection(AREAS_COLLECTION)
      .find({}, { projection: { level: 1, id: 1, updatedAt: 1 } })
      .toArray();
    assert.deepEqual(after, before, 'not even updatedAt moved');
    assert.equal(await mongo!.db.collection(IMPORT_RUNS_COLLECTION).countDocuments(), 2);
  });

  it('reports the rejects of a broken file with their reasons, and stores the valid rest', async () => {
    const broken = await tempSource({
      'tur_adm2_districts.geojson': collection([
        feature({ id: 5001, name: 'Valid', province_id: 34 }, rect(28.5, 41.0, 28.6, 41.1)),
        feature({ id: 5002, name: 'Open ring', province_id: 34 }, [
          [28.5, 41],
          [28.6, 41],
          [28.6, 41.1],
          [28.5, 41.1],
        ]),
        feature({ id: 5003, name: 'No city', province_id: 99 }, rect(28.5, 41.0, 28.6, 41.1)),
        feature({ id: 1421, name: 'Kadıköy again', province_id: 34 }, rect(29, 40.9, 29.1, 41)),
        feature({ id: 5001, name: 'Duplicate', province_id: 34 }, rect(28.5, 41.0, 28.6, 41.1)),
        {
          type: 'Feature',
          properties: { id: 5004, name: 'Line', province_id: 34 },
          geometry: {
            type: 'LineString',
            coordinates: [
              [28, 41],
              [29, 41],
            ],
          },
        },
      ]),
    });
    try {
      const report = await importBoundaries(broken.dir, repo, logger);
      assert.deepEqual(
        report.rejected.map((r) => [r.index, r.id, r.reason]),
        [
          [1, 5002, 'polygon 0 ring 0 is not closed (first position differs from last)'],
          [2, 5003, 'parent city 99 (property province_id) does not exist'],
          [4, 5001, 'duplicate id 5001 (already used by feature 0)'],
          [5, 5004, 'geometry type "LineString" is not Polygon or MultiPolygon'],
        ],
      );
      assert.deepEqual([report.inserted, report.updated, report.unchanged], [1, 1, 0], 'Kadıköy renamed: an update');
      const [run] = await repo.recentImportRuns(1);
      assert.equal(run?.rejected[0]?.reason, 'polygon 0 ring 0 is not closed (first position differs from last)');
    } finally {
      await broken.remove();
    }
    // Restore the real Kadıköy for the next test.
    const restored = await importBoundaries(dir!, repo, logger);
    assert.deepEqual([restored.updated, restored.inserted], [1, 0]);
  });

  it('builds the index from the stored areas: known places resolve, CTR and the open sea too', async () => {
    const started = performance.now();
    const areas = await repo.loadAll();
    const snapshot = buildGeoSnapshot(areas);
    console.log(`      loadAll + index build: ${(performance.now() - started).toFixed(0)} ms (index ${snapshot.buildMs.toFixed(0)} ms)`);
    assert.equal(areas.length, 1795, '1794 real areas and the valid district of the broken file');
    const queries = new GeoQueries(snapshot);
    for (const [name, known] of Object.entries(KNOWN_POINTS)) {
      const r = queries.resolvePoint(known.at[0], known.at[1]);
      assert.ok(r.ok);
      assert.deepEqual([r.value.country, r.value.city?.id, r.value.district?.id], ['TUR', known.city, known.district], name);
    }
    const buyukada = queries.resolvePoint(...KNOWN_POINTS.buyukada.at);
    assert.ok(buyukada.ok && buyukada.value.district?.name === 'Adalar');
    const lefkosa = queries.resolvePoint(...LEFKOSA);
    assert.ok(lefkosa.ok);
    assert.deepEqual([lefkosa.value.country, lefkosa.value.city?.id, lefkosa.value.district], ['CTR', 9001, undefined]);
    assert.deepEqual(queries.resolvePoint(...BLACK_SEA_300_KM), { ok: true, value: {} });

    const istanbul = queries.getCity(34);
    assert.ok(istanbul.ok && istanbul.value.name === 'İstanbul' && istanbul.value.licensePlateCode === 34);
    const kadikoy = queries.getDistrict(1421);
    assert.ok(kadikoy.ok && kadikoy.value.name === 'Kadıköy' && kadikoy.value.city.id === 34);
    const ctr = queries.listCities('CTR');
    assert.ok(ctr.ok);
    assert.deepEqual(
      ctr.value.map((c) => [c.id, c.licensePlateCode]),
      [[9001, null]],
    );
    const tur = queries.listCities('TUR', { simplifyToleranceM: 500 });
    assert.ok(tur.ok && tur.value.length === 81 && tur.value[0]!.id === 1);
  });
});
