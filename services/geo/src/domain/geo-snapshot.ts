import type { Area } from './area.js';
import { AreaCatalog } from './area-catalog.js';
import { SpatialIndex, type SpatialIndexOptions } from './spatial-index.js';

export interface GeoSnapshot {
  readonly catalog: AreaCatalog;
  readonly index: SpatialIndex;
  /** Time to build the index, for the start-up log. */
  readonly buildMs: number;
}

/** The in-memory view the queries read, from every area (typically `AreaRepository.loadAll()`). */
export function buildGeoSnapshot(areas: readonly Area[], options: SpatialIndexOptions = {}): GeoSnapshot {
  const started = performance.now();
  const index = new SpatialIndex(areas, options);
  return { catalog: new AreaCatalog(areas), index, buildMs: performance.now() - started };
}
