import { existsSync, statSync } from 'node:fs';
import { BOUNDARY_FILES } from './boundary-files.js';
import { isUrlSource } from './read-source.js';
import { sharedGeoDataDir } from './shared-geo-data.js';

export const GEO_SOURCE_VARIABLE = 'STORMHOOK_GEO_SOURCE';

export interface GeoSource {
  /** A directory path or an http(s) URL, as importBoundaries takes it. */
  readonly source: string;
  readonly origin: 'configured' | 'shared-data';
}

/** No boundary data is configured or found; the message says where to get some and how to use it. */
export class GeoSourceError extends Error {
  override readonly name = 'GeoSourceError';
}

const HOW_TO =
  `Get boundary data as GeoJSON: Turkish provinces and districts from geoBoundaries gbOpen TUR ADM1 and ADM2 ` +
  `(https://www.geoboundaries.org), or OpenStreetMap extracts (admin_level 4 and 6, e.g. https://download.geofabrik.de ` +
  `or https://osm-boundaries.com); neighbourhoods from Who's On First (https://whosonfirst.org, whosonfirst-data-admin-tr). ` +
  `Name the files ${BOUNDARY_FILES.map((f) => f.file).join(', ')} with the properties listed in services/geo/README.md, ` +
  `then set ${GEO_SOURCE_VARIABLE} to their directory or to an http(s) URL serving them.`;

/**
 * Where the boundary import reads from: STORMHOOK_GEO_SOURCE when set; else `../shared/data/geo`
 * beside the repository when it exists (the development data); else a GeoSourceError explaining what
 * to do. A configured directory that does not exist fails at once, naming the variable.
 */
export function resolveGeoSource(envValue: string | undefined, repoRoot: string | undefined): GeoSource {
  const configured = envValue?.trim();
  if (configured) {
    if (!isUrlSource(configured) && !(existsSync(configured) && statSync(configured).isDirectory())) {
      throw new GeoSourceError(`${GEO_SOURCE_VARIABLE}=${configured} is neither an existing directory nor an http(s) URL. ${HOW_TO}`);
    }
    return { source: configured, origin: 'configured' };
  }
  if (repoRoot) {
    const shared = sharedGeoDataDir(repoRoot);
    if (existsSync(shared) && statSync(shared).isDirectory()) return { source: shared, origin: 'shared-data' };
  }
  throw new GeoSourceError(`No boundary data: ${GEO_SOURCE_VARIABLE} is not set and ../shared/data/geo does not exist. ${HOW_TO}`);
}
