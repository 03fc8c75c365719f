import { defineEnv, int, str, url, type ConfigOf } from '@stormhook/config';
import { grpcEnv, internalSigningEnv, platformEnv } from '@stormhook/service-kit';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Everything the query service reads from its environment, validated once at start. */
const spec = {
  ...platformEnv,
  ...grpcEnv(50054),
  ...internalSigningEnv('query'),
  GEO_GRPC_ADDRESS: str({ default: '127.0.0.1:50052', description: 'geo service: the provinces that subscription geographies name' }),
  QUERY_CONSUMER_GROUP: str({
    default: 'stormhook-query',
    pattern: '^[A-Za-z0-9._-]{1,200}$',
    description:
      'consumer group of the weather topics; the topic prefix, when set, is put in front. The read models live in memory, so every replica needs ALL events: give each replica QUERY_INSTANCE_ID',
  }),
  QUERY_INSTANCE_ID: str({
    optional: true,
    pattern: '^[A-Za-z0-9._-]{1,100}$',
    description:
      'names this replica (the chart: its pod name); when set, the weather group is a group of its own under QUERY_CONSUMER_GROUP, so several replicas each read every event',
  }),
  QUERY_PARTITIONS_CONCURRENTLY: int({ default: 6, min: 1, max: 64, description: 'weather partitions processed in parallel' }),
  QUERY_RETENTION_MS: int({ default: 30 * DAY, min: MINUTE, max: 3650 * DAY, description: 'events older than this are purged, in milliseconds' }),
  QUERY_PURGE_INTERVAL_MS: int({ default: 60 * MINUTE, min: 1_000, description: 'how often retention runs, in milliseconds' }),
  QUERY_COMPACT_INTERVAL_MS: int({
    default: 30_000,
    min: 100,
    description: 'how often full or old index journals are compacted into segments, in milliseconds',
  }),
  QUERY_JOURNAL_MAX_ENTRIES: int({ default: 20_000, min: 1, description: 'entries after which an index journal is compacted' }),
  QUERY_JOURNAL_MAX_AGE_MS: int({ default: 10 * MINUTE, min: 100, description: 'age after which a non-empty index journal is compacted, in milliseconds' }),
  QUERY_WEATHER_ICON_URL_BASE: url({
    default: 'https://static.stormhook.io/weather-icons/v1/',
    protocols: ['http', 'https'],
    description: 'base address of the weather icons; forecasts answer icon file names relative to it',
  }),
  QUERY_FORECAST_MAX_CELL_DISTANCE_M: int({
    default: 50_000,
    min: 1_000,
    max: 500_000,
    description: 'a forecast grid cell farther than this from the point does not answer for it, in metres',
  }),
  QUERY_AREA_SIMPLIFY_TOLERANCE_M: int({
    default: 100,
    min: 0,
    max: 5_000,
    description: 'simplification of the province outlines events are tagged with, in metres',
  }),
  QUERY_HISTORY_CONSUMER_GROUP: str({
    default: 'stormhook-query-history',
    pattern: '^[A-Za-z0-9._-]{1,200}$',
    description:
      'consumer group of the weather history (all four weather topics); the topic prefix, when set, is put in front. The history lives in the database, so replicas share this group: each record is written once',
  }),
  QUERY_HISTORY_JOURNAL_MAX_RECORDS: int({
    default: 200_000,
    min: 1,
    description: 'history records after which a journal generation is compacted into chunks',
  }),
  QUERY_HISTORY_JOURNAL_MAX_AGE_MS: int({
    default: 10 * MINUTE,
    min: 100,
    description: 'age after which a non-empty history journal generation is compacted into chunks, in milliseconds',
  }),
  QUERY_HISTORY_CACHE_BYTES: int({ default: 64 * 1024 * 1024, min: 0, description: 'compressed history chunks kept in memory for reads, in bytes' }),
  QUERY_GEOMETRY_CACHE_VERTICES: int({ default: 2_000_000, min: 0, description: 'precipitation geometry kept in memory, in vertices (about 50 bytes each)' }),
  QUERY_THUNDERSTORM_CACHE_RECORDS: int({ default: 20_000, min: 0, description: 'thunderstorm records kept in memory' }),
};
export const loadConfig = defineEnv(spec);
export type Config = ConfigOf<typeof spec>;
