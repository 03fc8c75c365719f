import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GEO_ATTRIBUTION } from './attribution.js';
import { GeoSourceError, resolveGeoSource } from './geo-source.js';
import { sharedGeoDataDir } from './shared-geo-data.js';

describe('resolveGeoSource', () => {
  let base: string;
  let repo: string;
  before(async () => {
    base = await mkdtemp(join(tmpdir(), 'geo-src-'));
    repo = join(base, 'main');
    await mkdir(join(repo, 'services', 'geo', 'dist'), { recursive: true });
    await writeFile(join(repo, 'pnpm-workspace.yaml'), 'packages: []\n');
  });
  after(() => rm(base, { recursive: true, force: true }));

  it('looks for shared data beside the repository', () => {
    assert.equal(sharedGeoDataDir(repo), join(base, 'shared', 'data', 'geo'));
  });

  it('uses STORMHOOK_GEO_SOURCE first: an existing directory or an http(s) URL', () => {
    assert.deepEqual(resolveGeoSource(` ${base} `, repo), { source: base, origin: 'configured' });
    assert.deepEqual(resolveGeoSource('https://example.org/geo', repo), { source: 'https://example.org/geo', origin: 'configured' });
    assert.throws(
      () => resolveGeoSource(join(base, 'nope'), repo),
      (e: unknown) => e instanceof GeoSourceError && /STORMHOOK_GEO_SOURCE=.*nope is neither/.test(e.message),
    );
  });

  it('falls back to ../shared/data/geo beside the repository, else explains where to get data', async () => {
    assert.throws(
      () => resolveGeoSource(undefined, repo),
      (e: unknown) =>
        e instanceof GeoSourceError &&
        /STORMHOOK_GEO_SOURCE is not set/.test(e.message) &&
        /geoBoundaries/.test(e.message) &&
        /OpenStreetMap/.test(e.message) &&
        /Who's On First/.test(e.message) &&
        /set STORMHOOK_GEO_SOURCE to their directory/.test(e.message),
    );
    await mkdir(sharedGeoDataDir(repo), { recursive: true });
    assert.deepEqual(resolveGeoSource('', repo), { source: sharedGeoDataDir(repo), origin: 'shared-data' });
    assert.throws(() => resolveGeoSource(undefined, undefined), GeoSourceError);
  });

  it('exports an attribution that fits in an HTTP header (Latin-1) and credits OSM and geoBoundaries', () => {
    assert.ok([...GEO_ATTRIBUTION].every((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) <= 0xff));
    assert.match(GEO_ATTRIBUTION, /^© OpenStreetMap contributors \(ODbL 1\.0\); boundaries via geoBoundaries \(www\.geoboundaries\.org\)/);
  });
});
