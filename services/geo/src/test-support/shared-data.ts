import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRepoRoot } from '@stormhook/config';
import { sharedGeoDataDir } from '../import/shared-geo-data.js';

/**
 * The real boundary files (../shared/data/geo beside the repository), which the repository must not
 * copy (ODbL share-alike). Undefined when absent: data-dependent tests then skip, saying why.
 */
export function sharedGeoData(): string | undefined {
  const root = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
  const dir = root && sharedGeoDataDir(root);
  return dir && existsSync(dir) ? dir : undefined;
}

export const NO_SHARED_DATA = 'skipped: ../shared/data/geo (the boundary files beside the repository) is absent; see services/geo/README.md';

/** Known places, [lng, lat], and what they must resolve to. */
export const KNOWN_POINTS = {
  kadikoy: { at: [29.03, 40.99], city: 34, district: 1421 },
  cankaya: { at: [32.85, 39.9], city: 6, district: 1231 },
  konak: { at: [27.14, 38.42], city: 35, district: 1819 },
  ortahisar: { at: [39.72, 41.0], city: 61, district: 2097 },
  gokceada: { at: [25.85, 40.18], city: 17, district: 1408 },
  buyukada: { at: [29.12, 40.86], city: 34, district: 1103 },
} as const;

/** Northern Lefkoşa (Nicosia), inside the CTR outline. */
export const LEFKOSA: readonly [number, number] = [33.36, 35.19];
/** Central Black Sea, about 300 km north of the Turkish coast near Ereğli/Bartın. */
export const BLACK_SEA_300_KM: readonly [number, number] = [31.8, 44.3];
