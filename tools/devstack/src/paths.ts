import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireRepoRoot } from '@stormhook/config';

/** Repository root and the ignored folders the embedded stack caches and runs in. */
export const repoRoot = requireRepoRoot(dirname(fileURLToPath(import.meta.url)));
export const stackDir = resolve(repoRoot, '.stack');
export const paths = {
  cache: join(stackDir, 'cache'),
  data: join(stackDir, 'data'),
  logs: join(stackDir, 'logs'),
  run: join(stackDir, 'run'),
};

/**
 * A second stack from the same checkout (the end-to-end tests beside a developer's `npm start`)
 * keeps its logs, pid files and lock apart; caches and the embedded infrastructure are shared.
 * Called once by the CLI, after the configuration is validated.
 */
export function useInstance(instance: string | undefined): void {
  if (!instance) return;
  paths.logs = join(stackDir, 'logs', instance);
  paths.run = join(stackDir, 'run', instance);
}
