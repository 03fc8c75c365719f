import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (the folder holding pnpm-workspace.yaml), found from this file: no machine paths. */
export const repoRoot: string = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('no pnpm-workspace.yaml above the end-to-end tests');
    dir = parent;
  }
  return dir;
})();
