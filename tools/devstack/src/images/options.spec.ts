import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageName } from './build.js';
import { loadImageOptions } from './options.js';

const VERSIONS = { STORMHOOK_NODE_VERSION: '24.21.0', STORMHOOK_PNPM_VERSION: '10.34.9' };

describe('image options', () => {
  let dir = '';
  before(() => (dir = mkdtempSync(join(tmpdir(), 'stormhook-images-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('builds local names without a registry and prefixed names with one', () => {
    assert.equal(imageName('alarm-matcher', 'abc123'), 'stormhook/alarm-matcher:abc123');
    assert.equal(imageName('gateway', 'abc123', 'registry.example.com:5000/team/'), 'registry.example.com:5000/team/stormhook/gateway:abc123');
  });

  it('takes flags over variables, and NODE_EXTRA_CA_CERTS as the default CA bundle', () => {
    const bundle = join(dir, 'ca.pem');
    writeFileSync(bundle, '');
    const fromEnv = loadImageOptions([], { ...VERSIONS, NODE_EXTRA_CA_CERTS: bundle, STORMHOOK_IMAGE_REGISTRY: 'a.example.com' });
    assert.equal(fromEnv.caBundle, bundle);
    assert.equal(fromEnv.registry, 'a.example.com');
    const fromFlags = loadImageOptions(['--registry', 'b.example.com/x', '--push', '--engine', 'docker'], {
      ...VERSIONS,
      STORMHOOK_IMAGE_REGISTRY: 'a.example.com',
    });
    assert.deepEqual([fromFlags.registry, fromFlags.push, fromFlags.engine], ['b.example.com/x', true, 'docker']);
  });

  it('refuses what cannot work, naming the flag or variable', () => {
    assert.throws(() => loadImageOptions(['--push'], VERSIONS), /--push \/ STORMHOOK_IMAGE_PUSH needs --registry/);
    assert.throws(() => loadImageOptions(['--ca-bundle', join(dir, 'missing.pem')], VERSIONS), /--ca-bundle .* is not a file/);
    assert.throws(() => loadImageOptions(['--registry'], VERSIONS), /--registry needs a value/);
    assert.throws(() => loadImageOptions(['--engine', 'lxc'], VERSIONS), /STORMHOOK_IMAGE_ENGINE/);
    assert.throws(() => loadImageOptions(['--bogus'], VERSIONS), /unknown option --bogus/);
    assert.throws(() => loadImageOptions([], {}), /STORMHOOK_NODE_VERSION/);
  });
});
