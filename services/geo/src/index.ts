export { start } from './service.js';
export { loadConfig, type Config } from './config.js';

// Domain: areas, geometry, the spatial index and the use cases.
export {
  AREA_LEVELS,
  COUNTRY_NAMES,
  CTR_OUTLINE_AREA_ID,
  SUPPORTED_COUNTRIES,
  areaKey,
  isAreaLevel,
  isCountryCode,
  parentLevel,
  type Area,
  type AreaLevel,
  type AreaRef,
  type CountryCode,
} from './domain/area.js';
export type { QueryShape } from './domain/geometry/query-shape.js';
export { largestPolygon, multiPolygonProblem, ringProblem, MIN_RING_POINTS } from './domain/geometry/ring.js';
export { simplifyMultiPolygon, simplifyRing } from './domain/geometry/simplify.js';
export { positionProblem } from './domain/geometry/position.js';
export { AreaCatalog } from './domain/area-catalog.js';
export { DEFAULT_FALLBACK_LIMIT_M, SpatialIndex, type PointResolution, type ResolvedArea, type SpatialIndexOptions } from './domain/spatial-index.js';
export { buildGeoSnapshot, type GeoSnapshot } from './domain/geo-snapshot.js';
export type { GeoError, GeoResult } from './domain/geo-error.js';
export {
  GeoQueries,
  MAX_CIRCLE_RADIUS_M,
  MAX_POLYGON_REFS,
  MAX_SIMPLIFY_TOLERANCE_M,
  type AreaGeometry,
  type CityView,
  type CountryView,
  type DistrictView,
  type GeometryOptions,
  type GeoQueriesDeps,
  type NeighbourhoodView,
} from './domain/geo-queries.js';

// Import of boundary GeoJSON.
export { GEO_ATTRIBUTION } from './import/attribution.js';
export { BOUNDARY_FILES, type BoundaryFileSpec } from './import/boundary-files.js';
export { importBoundaries, NoBoundaryFilesError, type ImportOptions } from './import/import-boundaries.js';
export type { FileReport, ImportReport, RejectedFeature } from './import/import-report.js';
export type { BoundaryStore, HashedArea } from './import/boundary-store.js';
export { parseBoundaries, type ParsedBoundaries } from './import/parse-boundaries.js';
export { GEO_SOURCE_VARIABLE, GeoSourceError, resolveGeoSource, type GeoSource } from './import/geo-source.js';
export { sharedGeoDataDir } from './import/shared-geo-data.js';

// Persistence.
export { AREAS_COLLECTION, AreaRepository, IMPORT_RUNS_COLLECTION } from './persistence/area-repository.js';
