import assert from 'node:assert/strict';
import { FERRETDB_PATCHES, patchText, type SourcePatch } from './ferretdb-patches.js';

describe('FerretDB source patches', () => {
  const patch: SourcePatch = { why: 'example', file: 'a.go', find: 'X = 1', replace: 'X = 2' };

  it('replaces the upstream text', () => {
    assert.equal(patchText('const (\n\tX = 1\n)\n', patch), 'const (\n\tX = 2\n)\n');
  });

  it('fails, naming the file, when the upstream text is missing or ambiguous', () => {
    assert.throws(() => patchText('X = 3', patch), /expected exactly one "X = 1" in a\.go/);
    assert.throws(() => patchText('X = 1; X = 1', patch), /expected exactly one/);
  });

  it('spells the _id filter exactly as FerretDB spells the _id index expression', () => {
    const idColumn = FERRETDB_PATCHES.find((p) => p.file.endsWith('metadata/metadata.go'));
    assert.ok(idColumn);
    // registry.go builds index columns as fmt.Sprintf("%s->%s", DefaultColumn, %q-quoted field).
    assert.equal(patchText(`\tIDColumn = DefaultColumn + "->'$._id'"\n`, idColumn), '\tIDColumn = DefaultColumn + `->"_id"`\n');
  });
});
