import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireRepoRoot } from '@stormhook/config';

/** The repository root (the folder holding pnpm-workspace.yaml), found from this file: no machine paths. */
export const repoRoot: string = requireRepoRoot(dirname(fileURLToPath(import.meta.url)));
