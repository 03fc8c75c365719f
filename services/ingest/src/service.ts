import { createConsumer, ensureTopics, topicSpec, DEAD_LETTER_TOPIC, type TopicName } from '@stormhook/kafka';
import { startGrpcService, type PlatformOptions, type RunningGrpcService } from '@stormhook/service-kit';
import { rulesFromConfig, type Config } from './config.js';
import { BatchingSeenStore } from './dedup/batching-seen-store.js';
import { MongoSeenStore } from './persistence/mongo-seen-store.js';
import { createFeedHandler, FEED_TOPIC_NAMES, newCounters, type IngestCounters } from './transport/feed-handler.js';
import { IngestRecord } from './usecases/ingest-record.js';
import { startPurgeJob } from './usecases/purge-seen.js';
import { WEATHER_TOPICS } from './usecases/weather-topics.js';

export interface IngestOptions extends PlatformOptions {
  /** Receives the running totals of handled records (tests and the benchmark read them). */
  counters?: IngestCounters;
}

/** The topics ingest reads and writes; it creates them at start (KRaft auto-creation is off). */
export function ingestTopics(): TopicName[] {
  return [...FEED_TOPIC_NAMES, ...Object.values(WEATHER_TOPICS).map((w) => w.topic), DEAD_LETTER_TOPIC];
}

/** The consumer group: prefixed like the topics, so a second stack on the same broker has its own group. */
export function consumerGroup(config: Config): string {
  return config.STORMHOOK_TOPIC_PREFIX ? `${config.STORMHOOK_TOPIC_PREFIX}.${config.INGEST_CONSUMER_GROUP}` : config.INGEST_CONSUMER_GROUP;
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
      const consumer = createConsumer({
        kafka: platform.kafka,
        groupId: consumerGroup(config),
        topics: FEED_TOPIC_NAMES,
        handler: createFeedHandler({ ingest, logger, counters }),
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
