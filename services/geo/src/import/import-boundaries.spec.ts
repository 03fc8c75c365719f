import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createLogger } from '@stormhook/logger';
import { collection, feature, tempSource } from '../test-support/geojson.js';
import { MemoryBoundaryStore } from '../test-support/memory-store.js';
import { rect } from '../test-support/shapes.js';
import { importBoundaries, NoBoundaryFilesError } from './import-boundaries.js';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({ service: 'geo-import-spec', destination: { write: (l: string) => lines.push(JSON.parse(l)) } });
  return { lines, logger };
}

const PROVINCES = collection([
  feature({ id: 34, name: 'İstanbul', country: 'TUR' }, rect(28, 40.8, 30, 41.6)),
  feature({ id: 6, name: 'Ankara', country: 'TUR' }, rect(31.5, 39, 33.5, 40.5)),
]);
const DISTRICTS = collection([
  feature({ id: 1421, name: 'Kadıköy', province_id: 34 }, rect(29, 40.9, 29.1, 41)),
  feature({ id: 1231, name: 'Çankaya', province_id: 6 }, rect(32.7, 39.8, 32.9, 39.95)),
  feature({ id: 1999, name: 'Orphan', province_id: 99 }, rect(32, 39, 32.1, 39.1)),
]);

describe('importBoundaries (directory and URL sources, in-memory store)', () => {
  it('imports valid features, reports rejects and missing files, and logs progress', async () => {
    const source = await tempSource({ 'tur_adm1_provinces.geojson': PROVINCES, 'tur_adm2_districts.geojson': DISTRICTS });
    try {
      const store = new MemoryBoundaryStore();
      const { lines, logger } = capture();
      const report = await importBoundaries(source.dir, store, logger, { progressEvery: 2 });
      assert.equal(report.accepted, 4);
      assert.deepEqual([report.inserted, report.updated, report.unchanged], [4, 0, 0]);
      assert.deepEqual(report.rejected, [
        { file: 'tur_adm2_districts.geojson', index: 2, id: 1999, reason: 'parent city 99 (property province_id) does not exist' },
      ]);
      assert.deepEqual(
        report.files.map((f) => [f.file, f.status, f.features, f.accepted, f.rejected]),
        [
          ['tur_adm1_provinces.geojson', 'read', 2, 2, 0],
          ['ctr_outline_naturalearth.geojson', 'missing', 0, 0, 0],
          ['tur_adm2_districts.geojson', 'read', 3, 2, 1],
          ['tur_adm4_istanbul_wof_sample.geojson', 'missing', 0, 0, 0],
        ],
      );
      assert.deepEqual([...store.areas.keys()].sort(), ['city:34', 'city:6', 'district:1231', 'district:1421']);
      assert.equal(store.runs.length, 1);
      const progress = lines.filter((l) => l['msg'] === 'validating boundary features' && l['file'] === 'tur_adm2_districts.geojson');
      assert.deepEqual(
        progress.map((l) => l['done']),
        [2, 3],
      );
      assert.ok(lines.some((l) => l['msg'] === 'boundary feature rejected' && l['id'] === 1999));
    } finally {
      await source.remove();
    }
  });

  it('is idempotent: the same data again writes nothing; a changed area is an update', async () => {
    const source = await tempSource({ 'tur_adm1_provinces.geojson': PROVINCES });
    try {
      const store = new MemoryBoundaryStore();
      const { logger } = capture();
      await importBoundaries(source.dir, store, logger);
      const writes = store.writes;
      const again = await importBoundaries(source.dir, store, logger);
      assert.deepEqual([again.accepted, again.unchanged, again.inserted, again.updated], [2, 2, 0, 0]);
      assert.equal(store.writes, writes, 'no write at all');

      const renamed = PROVINCES.replace('Ankara', 'Angora');
      const changed = await tempSource({ 'tur_adm1_provinces.geojson': renamed });
      try {
        const third = await importBoundaries(changed.dir, store, logger);
        assert.deepEqual([third.unchanged, third.inserted, third.updated], [1, 0, 1]);
        assert.equal(store.areas.get('city:6')?.area.name, 'Angora');
      } finally {
        await changed.remove();
      }
    } finally {
      await source.remove();
    }
  });

  it('takes parents from the store when a source holds only a lower level', async () => {
    const store = new MemoryBoundaryStore();
    const { logger } = capture();
    const provinces = await tempSource({ 'tur_adm1_provinces.geojson': PROVINCES });
    const districts = await tempSource({ 'tur_adm2_districts.geojson': DISTRICTS });
    try {
      await importBoundaries(provinces.dir, store, logger);
      const report = await importBoundaries(districts.dir, store, logger);
      assert.deepEqual([report.inserted, report.rejected.length], [2, 1]);
    } finally {
      await provinces.remove();
      await districts.remove();
    }
  });

  it('reports a file that is not GeoJSON, and refuses a source with no boundary file at all', async () => {
    const source = await tempSource({ 'tur_adm1_provinces.geojson': '{"type":"FeatureCollection"', 'tur_adm2_districts.geojson': '{"type":"Feature"}' });
    const empty = await tempSource({ 'README.txt': 'nothing here' });
    try {
      const { logger } = capture();
      const report = await importBoundaries(source.dir, new MemoryBoundaryStore(), logger);
      assert.equal(report.accepted, 0);
      assert.equal(report.rejected.length, 2);
      assert.match(report.rejected[0]!.reason, /^not valid JSON: /);
      assert.deepEqual(report.rejected[1], { file: 'tur_adm2_districts.geojson', index: -1, reason: 'not a GeoJSON FeatureCollection' });
      assert.equal(report.files[0]!.status, 'invalid');
      await assert.rejects(importBoundaries(empty.dir, new MemoryBoundaryStore(), logger), NoBoundaryFilesError);
    } finally {
      await source.remove();
      await empty.remove();
    }
  });

  it('reads the same files over HTTP, treating 404 as missing and failing on a server error', async () => {
    const source = await tempSource({ 'tur_adm1_provinces.geojson': PROVINCES, 'tur_adm2_districts.geojson': DISTRICTS });
    let broken = false;
    const authorizations = new Set<string | undefined>();
    const server: Server = createServer((req, res) => {
      authorizations.add(req.headers.authorization);
      if (broken) return void res.writeHead(503).end();
      readFile(join(source.dir, req.url!.replace(/^\/boundaries\//, ''))).then(
        (body) => res.writeHead(200, { 'content-type': 'application/geo+json' }).end(body),
        () => res.writeHead(404).end(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://user:secret@127.0.0.1:${(server.address() as AddressInfo).port}/boundaries`;
      const { lines, logger } = capture();
      const report = await importBoundaries(url, new MemoryBoundaryStore(), logger);
      assert.deepEqual([report.accepted, report.rejected.length], [4, 1]);
      assert.deepEqual(
        report.files.map((f) => f.status),
        ['read', 'missing', 'read', 'missing'],
      );
      assert.ok(report.source.includes('***@') && !JSON.stringify(lines).includes('secret'), 'credentials never shown');
      assert.deepEqual([...authorizations], [`Basic ${Buffer.from('user:secret').toString('base64')}`], 'sent as Basic auth');
      broken = true;
      await assert.rejects(importBoundaries(url, new MemoryBoundaryStore(), logger), /answered 503/);
    } finally {
      server.close();
      await source.remove();
    }
  });
});
