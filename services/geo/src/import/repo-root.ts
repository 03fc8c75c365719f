import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The nearest directory at or above `start` holding pnpm-workspace.yaml: the repository root. */
export function findRepoRoot(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Where the development data lives, beside the repository: `<root>/../shared/data/geo`. */
export function sharedGeoDataDir(repoRoot: string): string {
  return resolve(repoRoot, '..', 'shared', 'data', 'geo');
}
