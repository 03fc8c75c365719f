import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Fixes applied to the FerretDB source before it is built. Each names the file, the exact upstream
 * text and its replacement; a patch whose text is not found fails the build instead of silently
 * producing an unpatched binary.
 */
export interface SourcePatch {
  /** Why the patch exists; printed when it is applied. */
  why: string;
  file: string;
  find: string;
  replace: string;
}

/**
 * FerretDB 1.24 (SQLite) creates the unique `_id_` index on the expression `_ferretdb_sjson->"_id"`
 * but filters `_id` lookups, updates and deletes on `_ferretdb_sjson->'$._id'`. SQLite only uses an
 * expression index for the identical expression, so every `{_id: …}` find, update and delete scanned
 * the whole table (EXPLAIN: `SCAN`), and their cost grew with the collection: 21 finds/s and 7
 * updates/s at 20,000 documents. With the filter spelled like the index (same value: both read the
 * `_id` member as JSON) the plan is `SEARCH … USING INDEX …__id_` and the same calls run at
 * 900 and 600 per second. FerretDB 2 dropped SQLite, so there is no upstream release to wait for.
 */
export const FERRETDB_PATCHES: readonly SourcePatch[] = [
  {
    why: '_id lookups use the _id index',
    file: 'internal/backends/sqlite/metadata/metadata.go',
    find: `IDColumn = DefaultColumn + "->'$._id'"`,
    replace: 'IDColumn = DefaultColumn + `->"_id"`',
  },
];

/** Applies the patch to the text; an error when the upstream text is not there exactly once. */
export function patchText(text: string, patch: SourcePatch): string {
  const first = text.indexOf(patch.find);
  if (first < 0 || text.indexOf(patch.find, first + 1) >= 0) {
    throw new Error(`FerretDB patch "${patch.why}": expected exactly one "${patch.find}" in ${patch.file}; the upstream source changed, review the patch`);
  }
  return text.replace(patch.find, patch.replace);
}

export function applyPatches(sourceDir: string, patches: readonly SourcePatch[], log: (m: string) => void): void {
  for (const patch of patches) {
    const path = join(sourceDir, patch.file);
    writeFileSync(path, patchText(readFileSync(path, 'utf8'), patch));
    log(`patched FerretDB: ${patch.why}`);
  }
}
