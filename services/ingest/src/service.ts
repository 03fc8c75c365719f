import { consumerGroupId, createChannelConsumer, ensureTopics, topicSpec, DEAD_LETTER_TOPIC, type TopicName } from '@stormhook/kafka';
import { startGrpcService, type PlatformOptions, type RunningGrpcService } from '@stormhook/service-kit';
import { rulesFromConfig, type Config } from './config.js';
import { BatchingSeenStore } from './dedup/batching-seen-store.js';
import { MongoSeenStore } from './persistence/mongo-seen-store.js';
import { feedChannels, newCounters, type IngestCounters } from './transport/feed-handler.js';
import { IngestRecord } from './usecases/ingest-record.js';
import { startPurgeJob } from './usecases/purge-seen.js';
import { FEED_ROUTES } from './usecases/weather-topics.js';

export interface IngestOptions extends PlatformOptions {
  /** Receives the running totals of handled records (tests and the benchmark read them). */
  counters?: IngestCounters;
}

/** The topics ingest reads and writes; it creates them at start (KRaft auto-creation is off). */
export function ingestTopics(): TopicName[] {
  return [...Object.values(FEED_ROUTES).flatMap((route) => [route.feed, route.weather]), DEAD_LETTER_TOPIC];
}

/** The consumer group id on the broker (tools and tests look it up). */
export function consumerGroup(config: Config): string {
  return consumerGroupId(config.INGEST_CONSUMER_GROUP, config.STORMHOOK_TOPIC_PREFIX);
}

/**
 * Starts the ingest service: the gate for data feeds. It consumes the four feed topics, validates,
 * normalises and de-duplicates every record, and publishes weather events keyed by area; rejects go
 * to the dead-letter topic. gRPC carries only the health check, SERVING while Kafka, the database
 * and the feed consumer are all up.
 */
export function start(config: Config, opts: IngestOptions = {}): Promise<RunningGrpcService> {
  return startGrpcService(
    'ingest',
    config,
    async (platform) => {
      const prefix = platform.topicPrefix;
      const logger = platform.logger;
      await ensureTopics(platform.kafka, ingestTopics().map(topicSpec), { ...(prefix ? { prefix } : {}), logger });
      const rules = rulesFromConfig(config);
      const store = new BatchingSeenStore(MongoSeenStore.open(platform.mongo.db), {
        maxItems: config.INGEST_BATCH_MAX_ITEMS,
        maxDelayMs: config.INGEST_BATCH_MAX_DELAY_MS,
        viewCapacity: config.INGEST_SEEN_VIEW_SIZE,
        viewWindowMs: config.INGEST_SEEN_VIEW_WINDOW_MS,
      });
      const ingest = new IngestRecord({ store, sink: platform.publisher, rules });
      const counters = opts.counters ?? newCounters();
      let consumerAlive = true;
      const consumer = createChannelConsumer({
        kafka: platform.kafka,
        group: config.INGEST_CONSUMER_GROUP,
        ...feedChannels({ ingest, logger, counters }),
        publisher: platform.publisher,
        logger,
        ...(prefix ? { prefix } : {}),
        partitionsConsumedConcurrently: config.INGEST_PARTITIONS_CONCURRENTLY,
        // Safe for ingest: a source id is its record key, and its seen-store writes are conditional.
        // Many records in flight is what lets them share seen-store batches and produce requests.
        recordsInFlight: config.INGEST_RECORDS_IN_FLIGHT,
        // Source ids of partitions that moved may have been written by their other owner since.
        onAssignment: () => store.forget(),
        onFatal: (error) => {
          consumerAlive = false;
          logger.error({ err: error }, 'feed consumer down; ingest reports NOT_SERVING until it rejoins');
        },
        onRecovered: () => {
          consumerAlive = true;
        },
      });
      // The health answer follows the consumer too: a stopped consumer is an outage even with Kafka up.
      platform.checks['feed-consumer'] = async () => consumerAlive;
      await consumer.start();
      const purge = startPurgeJob({ store, maxAgeMs: rules.maxAgeMs, intervalMs: config.INGEST_PURGE_INTERVAL_MS, logger });
      return {
        async stop() {
          purge.stop();
          await consumer.stop();
          await store.drain();
        },
      };
    },
    opts,
  );
}
