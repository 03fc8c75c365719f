export { start, ingestTopics, consumerGroup, type IngestOptions } from './service.js';
export { loadConfig, rulesFromConfig, type Config } from './config.js';
export { newCounters, type IngestCounters } from './transport/feed-handler.js';
export { FEED_ROUTES } from './usecases/weather-topics.js';
export { areaKey, AREA_KEY_PRECISION } from './domain/area-key.js';
export { geohash, geohashBounds } from './domain/geo/geohash.js';
export { gridCellId } from './domain/grid-cell-id.js';
export { intensityForRainRate, intensityRank, INTENSITIES, RAIN_RATE_TABLE, type Intensity } from './domain/intensity.js';
export { FORECAST_METRICS, type ForecastMetricName } from './domain/forecast-metrics.js';
export { DEFAULT_RULES, DEFAULT_COVERAGE, type IngestRules } from './domain/rules.js';
export { validateFeedMessage, type FeedMessage } from './domain/validate.js';
export type { FeedSink } from './feed-sink.js';
export {
  runSimulator,
  WeatherSimulator,
  DEFAULT_SIM_OPTIONS,
  TURKEY,
  type RunSimulatorOptions,
  type SimSummary,
  type SimOptions,
  type SimRecord,
  stateAt,
  cellPolygonAt,
  cellRecord,
  cellWindow,
  centerAt,
  observedMotion,
  velocityAt,
  StormCatalogue,
  MAX_LIFE_MS,
  OBSERVED_OVER_MS,
  type StormSystem,
  type StormState,
  type Motion,
} from './sim/index.js';
export { fetchForecastRun, publishForecastRun, runOpenMeteoAdapter, parseGrid, loadOpenMeteoConfig, type OpenMeteoOptions } from './open-meteo/index.js';
