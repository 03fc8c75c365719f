import { createClient } from '@stormhook/grpc';
import { channelsOf, consumerGroupId, createChannelConsumer, DEAD_LETTER_TOPIC, ensureTopics, replicaGroup, topicSpec, TopicNames } from '@stormhook/kafka';
import { geoV1, queryV1 } from '@stormhook/proto';
import { internalTokensOf, startGrpcService, type PlatformOptions, type RunningGrpcService } from '@stormhook/service-kit';
import type { AreaIndex } from '@stormhook/access';
import { loadAreasWithRetry, type GeoAreasClient } from '@stormhook/access';
import type { Config } from './config.js';
import { buildHistory, buildReadModels, loadReadModels } from './compose.js';
import { createHistoryConsumer, newHistoryCounters, type HistoryCounters } from './history/transport/history-consumer.js';
import { historyHandlers } from './history/transport/history-handlers.js';
import { queryHandlers } from './transport/grpc-handlers.js';
import { newWeatherCounters, weatherChannels, type WeatherCounters } from './transport/weather-consumer.js';
import type { QueryContext } from './usecases/context.js';
import { startMaintenance, type Maintenance } from './usecases/retention.js';

export interface QueryOptions extends PlatformOptions {
  /** Receives the running totals of consumed records (tests read them). */
  counters?: WeatherCounters;
  /** Receives the running totals of the records the weather history consumed. */
  historyCounters?: HistoryCounters;
  /** Receives the retention job, so tests can run it at once. */
  onMaintenance?: (maintenance: Maintenance) => void;
  /** Stand-in for the geo service's areas (unit-level tests); default: the GEO_GRPC_ADDRESS client. */
  geo?: GeoAreasClient;
}

/**
 * The weather group's name: a replica's own group when QUERY_INSTANCE_ID names the replica (the read
 * models live in memory, so every replica reads every event), else QUERY_CONSUMER_GROUP itself.
 */
function weatherGroup(config: Config): string {
  return config.QUERY_INSTANCE_ID === undefined ? config.QUERY_CONSUMER_GROUP : replicaGroup(config.QUERY_CONSUMER_GROUP, 'weather', config.QUERY_INSTANCE_ID);
}

/** The consumer group id on the broker (tools and tests look it up). */
export function consumerGroup(config: Config): string {
  return consumerGroupId(weatherGroup(config), config.STORMHOOK_TOPIC_PREFIX);
}

/** The weather history's consumer group id on the broker. */
export function historyConsumerGroup(config: Config): string {
  return consumerGroupId(config.QUERY_HISTORY_CONSUMER_GROUP, config.STORMHOOK_TOPIC_PREFIX);
}

/**
 * Starts the query service: rebuilds the read models and the weather history's manifest from its
 * database, serves the QueryService and WeatherHistoryService gRPC APIs at once (restricted callers
 * get a 503 until the subscription areas are loaded), consumes the four weather topics into the
 * history in a consumer group of its own, loads the provinces from the geo service (retrying until
 * it answers), then consumes the weather topics into the read models.
 * Health answers SERVING once the subscription areas are loaded, while Kafka and the database answer
 * and the consumer has not failed.
 */
export async function start(config: Config, opts: QueryOptions = {}): Promise<RunningGrpcService> {
  // Its own signing key, checked before anything connects.
  const tokens = internalTokensOf(config, 'query');
  return startGrpcService(
    'query',
    config,
    async (platform, server) => {
      const { logger } = platform;
      const prefix = platform.topicPrefix;
      const sinks = buildReadModels(platform.mongo.db, config, logger);
      let areas: AreaIndex | undefined;
      const weather = weatherChannels({ sinks, areas: () => areas!, counters: opts.counters ?? newWeatherCounters() });
      await ensureTopics(platform.kafka, [...channelsOf(weather.handlers), TopicNames.WeatherLightning, DEAD_LETTER_TOPIC].map(topicSpec), {
        ...(prefix ? { prefix } : {}),
        logger,
      });

      await loadReadModels(sinks, config, logger);
      const history = buildHistory(platform.mongo.db, config, logger);
      logger.info({ history: await history.load() }, 'weather history manifest loaded');

      const ctx: QueryContext = {
        ...sinks,
        areas: () => areas,
        now: Date.now,
        forecastSettings: { weatherIconUrlBase: config.QUERY_WEATHER_ICON_URL_BASE, maxCellDistanceM: config.QUERY_FORECAST_MAX_CELL_DISTANCE_M },
      };
      server.add(queryV1.QueryService, queryHandlers(ctx));
      server.add(queryV1.WeatherHistoryService, historyHandlers(history));

      const maintenance = startMaintenance({
        sinks,
        history,
        maxAgeMs: config.QUERY_RETENTION_MS,
        purgeIntervalMs: config.QUERY_PURGE_INTERVAL_MS,
        rollIntervalMs: config.QUERY_COMPACT_INTERVAL_MS,
        logger,
      });
      opts.onMaintenance?.(maintenance);

      const geoClient = opts.geo
        ? undefined
        : createClient(geoV1.GeoService, config.GEO_GRPC_ADDRESS, {
            deadlineMs: 30_000,
            internalToken: tokens.serviceTokenFor('geo'),
          });
      const geo = opts.geo ?? geoClient!;
      let consumerAlive = true;
      platform.checks['weather-consumer'] = async () => consumerAlive;
      // Restricted callers get a 503 until the provinces are loaded from geo, so health says so too:
      // a stack (or a rollout) is not "up" while customers with a plan geography would be refused.
      platform.checks['subscription-areas'] = async () => areas !== undefined;
      const consumer = createChannelConsumer({
        kafka: platform.kafka,
        group: weatherGroup(config),
        ...weather,
        publisher: platform.publisher,
        logger,
        ...(prefix ? { prefix } : {}),
        partitionsConsumedConcurrently: config.QUERY_PARTITIONS_CONCURRENTLY,
        onFatal: (error) => {
          consumerAlive = false;
          logger.error({ err: error }, 'weather consumer down; query reports NOT_SERVING until it rejoins');
        },
        onRecovered: () => {
          consumerAlive = true;
        },
      });
      // The history needs no provinces: it consumes from the start.
      let historyAlive = true;
      platform.checks['history-consumer'] = async () => historyAlive;
      const historyConsumer = createHistoryConsumer({
        kafka: platform.kafka,
        groupId: historyConsumerGroup(config),
        publisher: platform.publisher,
        logger,
        ...(prefix ? { prefix } : {}),
        store: history,
        counters: opts.historyCounters ?? newHistoryCounters(),
        partitionsConsumedConcurrently: config.QUERY_PARTITIONS_CONCURRENTLY,
        onFatal: (error) => {
          historyAlive = false;
          logger.error({ err: error }, 'weather history consumer down; query reports NOT_SERVING until it rejoins');
        },
        onRecovered: () => {
          historyAlive = true;
        },
      });
      const historyStarted = historyConsumer.start().catch((error: unknown) => {
        historyAlive = false;
        logger.fatal({ err: error }, 'weather history consumer could not start');
      });
      // Every event is tagged with the provinces it touches as it is consumed, so consuming waits
      // for them; the API answers from what was loaded meanwhile.
      const stopping = new AbortController();
      const background = (async () => {
        const loaded = await loadAreasWithRetry(geo, config.QUERY_AREA_SIMPLIFY_TOLERANCE_M, logger, stopping.signal);
        if (!loaded || stopping.signal.aborted) return;
        areas = loaded;
        try {
          await consumer.start();
        } catch (error) {
          if (stopping.signal.aborted) return;
          consumerAlive = false;
          logger.fatal({ err: error }, 'weather consumer could not start');
        }
      })();

      return {
        async stop() {
          stopping.abort();
          await background;
          await historyStarted;
          await historyConsumer.stop();
          await consumer.stop();
          await maintenance.stop();
          geoClient?.close();
        },
      };
    },
    opts,
  );
}
