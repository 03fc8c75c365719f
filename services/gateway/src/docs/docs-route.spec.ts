import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rendererFolder } from './docs-route.js';

describe('the API reference renderer folder', () => {
  it("takes the image's copied bundle when it is there", () => {
    const folder = mkdtempSync(join(tmpdir(), 'docs-assets-'));
    try {
      writeFileSync(join(folder, 'standalone.js'), '// bundle');
      assert.equal(rendererFolder(folder), folder);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('falls back to the installed package in a checkout, where the bundle is', () => {
    const folder = rendererFolder(join(tmpdir(), 'no-such-docs-assets'));
    assert.ok(existsSync(join(folder, 'standalone.js')), folder);
  });
});
