import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The development outbox inside the repository, beside the embedded stack's other data. */
export const DEV_OUTBOX_RELATIVE = join('.stack', 'data', 'notifier-outbox');

/** The nearest directory at or above `start` holding pnpm-workspace.yaml; undefined when there is none. */
export function findRepoRoot(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Where the development adapter writes when NOTIFIER_DEV_OUTBOX_DIR is unset: `.stack/data/notifier-outbox`
 * under the repository root, found from this file (so it does not depend on the working directory),
 * else from the working directory, else relative to the working directory.
 */
export function defaultDevOutboxDir(cwd: string = process.cwd()): string {
  const root = findRepoRoot(dirname(fileURLToPath(import.meta.url))) ?? findRepoRoot(cwd) ?? cwd;
  return join(root, DEV_OUTBOX_RELATIVE);
}
