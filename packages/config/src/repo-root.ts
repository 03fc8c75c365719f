import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The file that marks the root of the repository (the pnpm workspace). */
const ROOT_MARKER = 'pnpm-workspace.yaml';

/**
 * The nearest directory at or above `start` holding pnpm-workspace.yaml: the repository root, so
 * development defaults (the embedded stack's folders, shared data beside the checkout) need no
 * machine-specific path. Undefined when there is none, as in an installed image.
 */
export function findRepoRoot(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, ROOT_MARKER))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** {@link findRepoRoot} for code that only runs inside a checkout (dev tooling, tests): throws when there is none. */
export function requireRepoRoot(start: string): string {
  const root = findRepoRoot(start);
  if (root === undefined) throw new Error(`no ${ROOT_MARKER} at or above ${start}`);
  return root;
}
