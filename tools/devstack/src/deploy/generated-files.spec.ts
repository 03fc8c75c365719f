import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatedFileStep, writeGeneratedFile } from './generated-file.js';
import { GENERATED_FILES } from './generated-files.js';

describe('files the chart reads, rendered from code', () => {
  it('fails the deploy check of a missing file naming the command that writes it, and passes once it is written', () => {
    const root = mkdtempSync(join(tmpdir(), 'stormhook-generated-'));
    try {
      for (const file of GENERATED_FILES) {
        const missing = generatedFileStep(file, root);
        assert.equal(missing.ok, false);
        assert.match(missing.detail, new RegExp(`^missing: run \`node tools/devstack/dist/deploy/cli.js ${file.command}\``));
        const written = writeGeneratedFile(file, root);
        assert.equal(readFileSync(written, 'utf8'), file.render());
        assert.deepEqual(generatedFileStep(file, root), { name: `${file.path} matches ${file.source}`, ok: true, detail: 'fresh' });
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('gives every file its own command', () => {
    assert.equal(new Set(GENERATED_FILES.map((file) => file.command)).size, GENERATED_FILES.length);
  });
});
