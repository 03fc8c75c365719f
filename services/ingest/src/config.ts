import { ConfigError, defineEnv, int, str, type ConfigOf, type EnvSource } from '@stormhook/config';
import type { BBox } from '@stormhook/geometry';
import { areaText, FEED_AREA } from '@stormhook/limits';
import { grpcEnv, platformEnv } from '@stormhook/service-kit';
import { DEFAULT_RULES, type IngestRules } from './domain/rules.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const NUMBER = '[+-]?[0-9]+(\\.[0-9]+)?';

/** Everything the ingest service reads from its environment, validated once at start. */
const spec = {
  ...platformEnv,
  ...grpcEnv(50053),
  INGEST_CONSUMER_GROUP: str({
    default: 'stormhook-ingest',
    pattern: '^[A-Za-z0-9._-]{1,200}$',
    description: 'consumer group of the feed topics; the topic prefix, when set, is put in front',
  }),
  INGEST_PARTITIONS_CONCURRENTLY: int({
    default: 12,
    min: 1,
    max: 64,
    description: 'feed partitions processed in parallel (the four feed topics have 12 together); each waits on the database and the broker most of the time',
  }),
  INGEST_RECORDS_IN_FLIGHT: int({
    default: 1_000,
    min: 1,
    max: 2_000,
    description:
      'records of one feed partition processed at once when their keys (source ids) differ; one source id is always processed in order. The records in flight share the seen-store and broker round trips, so this is also the batch size ingest can reach',
  }),
  INGEST_BATCH_MAX_ITEMS: int({
    default: 500,
    min: 1,
    max: 5_000,
    description: 'seen-store look-ups or inserts per database round trip at most',
  }),
  INGEST_BATCH_MAX_DELAY_MS: int({
    default: 5,
    min: 0,
    max: 1_000,
    description: 'how long the first record of a seen-store batch waits for others, in milliseconds (the latency a lone record pays)',
  }),
  INGEST_SEEN_VIEW_SIZE: int({
    default: 100_000,
    min: 0,
    max: 10_000_000,
    description: 'de-duplication entries kept in memory per feed (the most recent ones), so most look-ups need no database round trip; 0 turns the views off',
  }),
  INGEST_SEEN_VIEW_WINDOW_MS: int({
    default: 10 * MINUTE,
    min: 0,
    max: DAY,
    description: "how far back (by event time) a feed's in-memory view is read from the database at start and after a rebalance, in milliseconds",
  }),
  INGEST_MAX_FUTURE_SKEW_MS: int({
    default: DEFAULT_RULES.maxFutureSkewMs,
    min: 0,
    max: DAY,
    description: 'how far in the future a record time may lie (clock skew), in milliseconds',
  }),
  INGEST_MAX_NOWCAST_LEAD_MS: int({
    default: DEFAULT_RULES.maxNowcastLeadMs,
    min: 0,
    max: 2 * DAY,
    description: 'how far ahead a precipitation nowcast (forecast = true) may be valid, in milliseconds',
  }),
  INGEST_MAX_AGE_MS: int({
    default: DEFAULT_RULES.maxAgeMs,
    min: MINUTE,
    max: 365 * DAY,
    description: 'records older than this are rejected, in milliseconds',
  }),
  INGEST_COVERAGE_BBOX: str({
    default: areaText(FEED_AREA),
    pattern: `^${NUMBER},${NUMBER},${NUMBER},${NUMBER}$`,
    description: 'covered area as minLng,minLat,maxLng,maxLat in decimal degrees; records wholly outside are rejected',
  }),
  INGEST_MAX_VERTICES: int({ default: DEFAULT_RULES.maxVertices, min: 4, max: 1_000_000, description: 'vertices per record' }),
  INGEST_PURGE_INTERVAL_MS: int({
    default: 60 * MINUTE,
    min: 1_000,
    description: 'how often de-duplication entries older than INGEST_MAX_AGE_MS are deleted, in milliseconds',
  }),
};

export type Config = ConfigOf<typeof spec>;

const load = defineEnv(spec);

function parseBBox(text: string): BBox | undefined {
  const [minLng, minLat, maxLng, maxLat] = text.split(',').map(Number) as [number, number, number, number];
  const ok = minLng >= -180 && maxLng <= 180 && minLat >= -90 && maxLat <= 90 && minLng < maxLng && minLat < maxLat;
  return ok ? { minLng, minLat, maxLng, maxLat } : undefined;
}

/** Loads and validates the config, the coverage box included; throws ConfigError naming the bad variables. */
export function loadConfig(env: EnvSource = process.env): Config {
  const config = load(env);
  if (!parseBBox(config.INGEST_COVERAGE_BBOX)) {
    throw new ConfigError([
      {
        variable: 'INGEST_COVERAGE_BBOX',
        problem: `must be minLng,minLat,maxLng,maxLat with min < max inside -180..180 and -90..90 (got "${config.INGEST_COVERAGE_BBOX}")`,
      },
    ]);
  }
  return config;
}

/** The validation rules the config describes. */
export function rulesFromConfig(config: Config): IngestRules {
  return {
    maxFutureSkewMs: config.INGEST_MAX_FUTURE_SKEW_MS,
    maxNowcastLeadMs: config.INGEST_MAX_NOWCAST_LEAD_MS,
    maxAgeMs: config.INGEST_MAX_AGE_MS,
    coverage: parseBBox(config.INGEST_COVERAGE_BBOX) ?? DEFAULT_RULES.coverage,
    maxVertices: config.INGEST_MAX_VERTICES,
  };
}
