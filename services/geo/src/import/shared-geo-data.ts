import { resolve } from 'node:path';

/** Where the development data lives, beside the repository: `<root>/../shared/data/geo`. */
export function sharedGeoDataDir(repoRoot: string): string {
  return resolve(repoRoot, '..', 'shared', 'data', 'geo');
}
