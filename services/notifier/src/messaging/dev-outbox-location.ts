import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRepoRoot } from '@stormhook/config';

/** The development outbox inside the repository, beside the embedded stack's other data. */
export const DEV_OUTBOX_RELATIVE = join('.stack', 'data', 'notifier-outbox');

/**
 * Where the development adapter writes when NOTIFIER_DEV_OUTBOX_DIR is unset: `.stack/data/notifier-outbox`
 * under the repository root, found from this file (so it does not depend on the working directory),
 * else from the working directory, else relative to the working directory.
 */
export function defaultDevOutboxDir(cwd: string = process.cwd()): string {
  const root = findRepoRoot(dirname(fileURLToPath(import.meta.url))) ?? findRepoRoot(cwd) ?? cwd;
  return join(root, DEV_OUTBOX_RELATIVE);
}
