import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRepoRoot, requireRepoRoot } from './repo-root.js';

describe('repository root', () => {
  let outside: string;
  let repo: string;

  before(() => {
    outside = mkdtempSync(join(tmpdir(), 'repo-root-'));
    repo = join(outside, 'checkout');
    mkdirSync(join(repo, 'services', 'geo', 'dist'), { recursive: true });
    writeFileSync(join(repo, 'pnpm-workspace.yaml'), 'packages: []\n');
  });
  after(() => rmSync(outside, { recursive: true, force: true }));

  it('walks up from a nested folder to the folder holding pnpm-workspace.yaml', () => {
    assert.equal(findRepoRoot(join(repo, 'services', 'geo', 'dist')), repo);
    assert.equal(findRepoRoot(repo), repo);
    assert.equal(requireRepoRoot(join(repo, 'services')), repo);
  });

  it('answers undefined above the checkout, and requireRepoRoot throws there', () => {
    assert.equal(findRepoRoot(outside), undefined);
    assert.throws(() => requireRepoRoot(outside), /no pnpm-workspace.yaml at or above/);
  });
});
