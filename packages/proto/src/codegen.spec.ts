import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Compiled to dist/, so the package folder is one level up.
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const generator = join(packageDir, 'codegen', 'generate.mjs');
const fixtures = join(packageDir, 'codegen', 'fixtures');

function run(args: string[], cwd = tmpdir()): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [generator, ...args], { cwd, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('codegen/generate.mjs', () => {
  let out: string;
  beforeEach(() => {
    out = mkdtempSync(join(tmpdir(), 'proto-gen-'));
  });
  afterEach(() => rmSync(out, { recursive: true, force: true }));

  it('finds that the committed generated code matches proto/, from any working directory', () => {
    const result = run(['--check']);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /up to date/);
  });

  it('maps every field shape to its TypeScript type', () => {
    assert.equal(run(['--proto', fixtures, '--out', out]).status, 0);
    const sample = readFileSync(join(out, 'stormhook.fixture.v1.ts'), 'utf8');
    for (const line of [
      'kind: Sample_Kind;',
      'count: number;',
      'payload: Uint8Array;',
      'tags: string[];',
      'byStation: Record<string, otherV1.Reading>;',
      'ageS?: number;',
      'part?: Sample_Part | null;',
      'quality: otherV1.Quality;',
      'name?: string;',
      'reading?: otherV1.Reading;',
      "export type Sample_Kind =\n  | 'KIND_UNSPECIFIED'\n  | 'KIND_SMALL'\n  | 'KIND_LARGE';",
      "import type * as otherV1 from './stormhook.other.v1.js';",
      "path: '/stormhook.fixture.v1.SampleService/Chat',",
      'list(request: Sample, call: Call): AsyncIterable<otherV1.Reading>;',
      'upload(requests: AsyncIterable<Sample>, call: Call): Promise<Sample>;',
      'chat(requests: AsyncIterable<Sample>, call: Call): AsyncIterable<Sample>;',
      'Oneof `target`: at most one of `name`, `reading` is set.',
    ]) {
      assert.ok(sample.includes(line), `missing: ${line}`);
    }
    const index = readFileSync(join(out, 'index.ts'), 'utf8');
    assert.match(index, /export \* as fixtureV1 from '\.\/stormhook\.fixture\.v1\.js';/);
    assert.match(index, /export \* as otherV1 from '\.\/stormhook\.other\.v1\.js';/);
  });

  it('is deterministic and --check names every stale, missing and leftover file', () => {
    assert.equal(run(['--proto', fixtures, '--out', out]).status, 0);
    const first = readFileSync(join(out, 'root.ts'), 'utf8');
    assert.equal(run(['--proto', fixtures, '--out', out, '--check']).status, 0);

    writeFileSync(join(out, 'stormhook.other.v1.ts'), '// edited by hand\n');
    rmSync(join(out, 'index.ts'));
    writeFileSync(join(out, 'stormhook.gone.v1.ts'), '// from a deleted package\n');
    const stale = run(['--proto', fixtures, '--out', out, '--check']);
    assert.equal(stale.status, 1);
    assert.match(stale.stderr, /stormhook\.other\.v1\.ts \(differs\)/);
    assert.match(stale.stderr, /index\.ts \(missing\)/);
    assert.match(stale.stderr, /stormhook\.gone\.v1\.ts \(no longer generated\)/);
    assert.match(stale.stderr, /generate\.mjs/);

    assert.equal(run(['--proto', fixtures, '--out', out]).status, 0);
    assert.equal(readFileSync(join(out, 'root.ts'), 'utf8'), first);
    assert.equal(run(['--proto', fixtures, '--out', out, '--check']).status, 0);
  });

  it('refuses a contract tree that breaks the naming and documentation rules', () => {
    const protoDir = join(out, 'proto');
    mkdirSync(join(protoDir, 'stormhook', 'bad', 'v1'), { recursive: true });
    writeFileSync(
      join(protoDir, 'stormhook', 'bad', 'v1', 'bad.proto'),
      [
        'syntax = "proto3";',
        'package stormhook.wrong.v1;',
        '// A message.',
        'message Thing {',
        '  double speed = 1;',
        '  // Colour of the thing (enum, unitless).',
        '  Colour colour = 2;',
        '}',
        'enum Colour { RED = 0; }',
        'service Things {',
        '  // Gets a thing.',
        '  rpc Get(Thing) returns (Thing);',
        '}',
      ].join('\n'),
    );
    const result = run(['--proto', protoDir, '--out', join(out, 'gen')]);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /stormhook\/bad\/v1\/bad\.proto: .*package stormhook\.wrong\.v1 must live in proto\/stormhook\/wrong\/v1\//);
    assert.match(result.stderr, /field speed needs a comment/);
    assert.match(result.stderr, /value RED must start with COLOUR_/);
    assert.match(result.stderr, /the zero value must be COLOUR_UNSPECIFIED/);
    assert.match(result.stderr, /service names are PascalCase and end in Service/);
  });
});
