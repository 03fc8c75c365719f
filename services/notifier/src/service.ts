import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import {
  channelsOf,
  consumerGroupId,
  createChannelConsumer,
  DEAD_LETTER_TOPIC,
  ensureTopics,
  messageOpeningKey,
  TopicNames,
  topicSpec,
  type ChannelHandlers,
  type ChannelName,
  type EventConsumer,
  type TopicName,
} from '@stormhook/kafka';
import { notificationV1 } from '@stormhook/proto';
import { startGrpcService, type Platform, type PlatformOptions, type RunningGrpcService } from '@stormhook/service-kit';
import type { Config } from './config.js';
import { MAX_RESPONSE_BODY_BYTES } from './domain/delivery.js';
import { DeliveryWorker } from './delivery/delivery-worker.js';
import { EndpointCache } from './delivery/endpoint-cache.js';
import { EndpointHealth } from './delivery/endpoint-health.js';
import { WebhookStatsRecorder } from './delivery/webhook-stats-recorder.js';
import { NodeWebhookSender } from './http/node-sender.js';
import { alarmTriggeredHandler } from './transport/alarm-triggered-handler.js';
import { KafkaNotifierEventPublisher } from './transport/kafka-event-publisher.js';
import { messageRequestedHandler } from './transport/message-requested-handler.js';
import { createMessageSender } from './messaging/create-message-sender.js';
import { MessageOutboxWorker } from './messaging/message-outbox-worker.js';
import { DeliveryMetrics } from './metrics/delivery-metrics.js';
import { ensureNotifierIndexes } from './persistence/collections.js';
import { MongoDeliveryStore } from './persistence/mongo-delivery-store.js';
import { MongoDevKeyring } from './persistence/mongo-dev-keyring.js';
import { MongoEndpointRepository } from './persistence/mongo-endpoint-repository.js';
import { MongoMessageLog } from './persistence/mongo-message-log.js';
import { MongoMessageOutbox } from './persistence/mongo-message-outbox.js';
import { MongoWebhookStatsStore } from './persistence/mongo-webhook-stats-store.js';
import { WriteGate } from './persistence/write-gate.js';
import { systemClock, type Clock } from './ports/clock.js';
import type { MessageSender } from './ports/message-sender.js';
import { RetentionJanitor } from './retention/retention-janitor.js';
import { CredentialCipher, parseKeyring } from './security/credential-cipher.js';
import { newDevKeyring } from './security/dev-keyring.js';
import { SsrfPolicy } from './security/ssrf-policy.js';
import { UrlGuard } from './security/url-guard.js';
import { notifierHandlers } from './transport/grpc-handlers.js';
import { AcceptAlarm } from './usecases/accept-alarm.js';
import { EndpointChangeWatcher } from './delivery/endpoint-change-watcher.js';
import { MongoEndpointChangeLog } from './persistence/mongo-endpoint-change-log.js';
import { DeliveryLog } from './usecases/delivery-log.js';
import { EndpointUseCases } from './usecases/endpoint-usecases.js';
import { QueueMessage } from './usecases/queue-message.js';
import { WebhookHealth } from './usecases/webhook-health.js';
import { RecoverDeliveries } from './usecases/recover-deliveries.js';
import { MongoRecoveryJobStore } from './persistence/mongo-recovery-job-store.js';
import { WebhookStatsReader } from './usecases/webhook-stats-reader.js';

export interface NotifierStartOptions extends PlatformOptions {
  clock?: Clock;
  /** Replaces the configured SMS and e-mail providers (tests: a provider that hangs or fails). */
  messageSender?: MessageSender;
}

/** The topics the notifier reads and writes; created at start (KRaft auto-creation is off). */
export const NOTIFIER_TOPICS: readonly TopicName[] = [TopicNames.AlarmTriggered, TopicNames.MessageRequested, TopicNames.DeliveryFailed, DEAD_LETTER_TOPIC];

/** How long the health answer reuses the list of statistics writers (it changes when a notifier process starts). */
const WRITERS_CACHE_MS = 10_000;

/** How long a stopping worker lets attempts in flight finish; the rest are retried elsewhere after their lease. */
const STOP_GRACE_MS = 5_000;

/** The two consumer groups' names; on the broker they are prefixed like the topics. */
function groupNames(config: Config): { alarms: string; messages: string } {
  return { alarms: config.NOTIFIER_CONSUMER_GROUP, messages: `${config.NOTIFIER_CONSUMER_GROUP}.messages` };
}

/** The consumer group ids on the broker (tools and tests look them up). */
export function consumerGroups(config: Config): { alarms: string; messages: string } {
  const names = groupNames(config);
  return { alarms: consumerGroupId(names.alarms, config.STORMHOOK_TOPIC_PREFIX), messages: consumerGroupId(names.messages, config.STORMHOOK_TOPIC_PREFIX) };
}

async function credentialCipher(config: Config, platform: Platform): Promise<CredentialCipher> {
  if (config.CREDENTIAL_ENCRYPTION_KEY) return new CredentialCipher(parseKeyring(config.CREDENTIAL_ENCRYPTION_KEY));
  const dev = await new MongoDevKeyring(platform.mongo.db).loadOrCreate(newDevKeyring);
  platform.logger.warn(
    { created: dev.created },
    'CREDENTIAL_ENCRYPTION_KEY is not set: webhook credentials are encrypted with a DEVELOPMENT key kept in the notifier database next to them; production MUST set it',
  );
  return new CredentialCipher(parseKeyring(dev.keyring));
}

/**
 * Starts the notifier: the account's webhook endpoint and delivery log over gRPC
 * (stormhook.notification.v1.NotifierService); alarm.triggered.v1 turned into durable deliveries that
 * a leased, database-backed worker sends; notification.message-requested.v1 sent as SMS or e-mail;
 * Prometheus metrics on METRICS_PORT.
 */
export function start(config: Config, opts: NotifierStartOptions = {}): Promise<RunningGrpcService> {
  const clock = opts.clock ?? systemClock;
  return startGrpcService(
    'notifier',
    config,
    async (platform, server) => {
      const { logger, mongo } = platform;
      const prefix = platform.topicPrefix;
      await ensureNotifierIndexes(mongo.db, logger);
      await ensureTopics(platform.kafka, NOTIFIER_TOPICS.map(topicSpec), { ...(prefix ? { prefix } : {}), logger });

      const cipher = await credentialCipher(config, platform);
      const policy = new SsrfPolicy(config.NOTIFIER_SSRF_ALLOW_CIDRS ?? []);
      if (policy.allowList.length > 0)
        logger.warn({ allow: policy.allowList.map((c) => c.text) }, 'SSRF allow-list set: callbacks may reach these private addresses');
      const endpointChanges = new MongoEndpointChangeLog(mongo.db, logger);
      const repository = new MongoEndpointRepository(mongo.db, cipher, endpointChanges);
      const pointed = await repository.backfillAccountPointers();
      if (pointed > 0) logger.info({ endpoints: pointed }, 'webhook endpoints found by account through _id lookups from now on');
      // One gate for every writer of the database in this process (see WriteGate).
      const writeGate = new WriteGate(config.NOTIFIER_DB_MAX_CONCURRENT_WRITES);
      const store = new MongoDeliveryStore(mongo.db, {
        gate: writeGate,
        batchMaxItems: config.NOTIFIER_BATCH_MAX_ITEMS,
        batchMaxDelayMs: config.NOTIFIER_BATCH_MAX_DELAY_MS,
      });
      const cache = new EndpointCache(repository, config.NOTIFIER_ENDPOINT_REFRESH_MS);
      const changeWatcher = new EndpointChangeWatcher(
        { log: endpointChanges, cache, logger },
        { intervalMs: config.NOTIFIER_ENDPOINT_CHANGE_POLL_MS, headCheckMs: 60_000 },
      );
      const publisher = new KafkaNotifierEventPublisher(platform.publisher);
      const metrics = new DeliveryMetrics(platform.metrics);
      const sender = new NodeWebhookSender({
        policy,
        maxBodyBytes: MAX_RESPONSE_BODY_BYTES,
        userAgent: config.NOTIFIER_USER_AGENT,
        maxSocketsPerHost: config.NOTIFIER_ENDPOINT_CONCURRENCY,
      });
      const health = new EndpointHealth({ repository, cache, publisher, clock, logger, autoDisableAfterMs: config.NOTIFIER_AUTO_DISABLE_AFTER_MS });
      const instanceId = config.NOTIFIER_INSTANCE_ID ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
      const statsStore = new MongoWebhookStatsStore(mongo.db, { gate: writeGate });
      const stats = new WebhookStatsRecorder(
        { store: statsStore, clock, logger },
        {
          // Per process start, even with a fixed instance id: a restart must not overwrite what the last run wrote.
          writerId: `${instanceId}@${Date.now().toString(36)}${randomBytes(2).toString('hex')}`,
          flushIntervalMs: config.NOTIFIER_STATS_FLUSH_INTERVAL_MS,
          maxAccountsPerFlush: config.NOTIFIER_STATS_MAX_ACCOUNTS_PER_FLUSH,
        },
      );
      const worker = new DeliveryWorker(
        { store, endpoints: cache, health, sender, publisher, clock, logger, metrics, stats },
        {
          instanceId,
          concurrency: config.NOTIFIER_CONCURRENCY,
          perEndpointConcurrency: config.NOTIFIER_ENDPOINT_CONCURRENCY,
          leaseMs: config.NOTIFIER_LEASE_MS,
          pollIntervalMs: config.NOTIFIER_POLL_INTERVAL_MS,
        },
      );
      const endpoints = new EndpointUseCases({ repository, clock, urlGuard: new UrlGuard(policy), cache });
      const deliveries = new DeliveryLog({
        store,
        endpoints: repository,
        clock,
        worker,
        maxManualRedeliveries: config.NOTIFIER_MAX_MANUAL_REDELIVERIES,
        stats,
      });
      const accept = new AcceptAlarm({ store, endpoints: cache, clock, intake: worker, holdLeaseMs: worker.leaseMs, stats });
      const statsReader = new WebhookStatsReader({ recorder: stats, store: statsStore, writersCacheMs: WRITERS_CACHE_MS });
      const webhookHealth = new WebhookHealth({ endpoints: repository, stats: statsReader, clock });
      const recoveries = new RecoverDeliveries({
        store,
        jobs: new MongoRecoveryJobStore(mongo.db),
        endpoints: repository,
        stats,
        progress: statsReader,
        clock,
        logger,
        worker,
        maxCallbacks: config.NOTIFIER_RECOVER_MAX_CALLBACKS,
        ratePerSecond: config.NOTIFIER_RECOVER_RATE_PER_SECOND,
        retentionDays: config.NOTIFIER_DELIVERY_RETENTION_DAYS,
      });
      const messages = createMessageSender(config, logger);
      const messageLog = new MongoMessageLog(mongo.db);
      const messageOutbox = new MongoMessageOutbox(mongo.db, cipher);
      const queueMessage = new QueueMessage({ outbox: messageOutbox, log: messageLog, clock, messageKey: messageOpeningKey(config.NOTIFIER_MESSAGE_KEY) });
      const messageWorker = new MessageOutboxWorker(
        { outbox: messageOutbox, sender: opts.messageSender ?? messages.sender, log: messageLog, clock, logger },
        {
          instanceId,
          concurrency: config.NOTIFIER_MESSAGE_CONCURRENCY,
          pollIntervalMs: config.NOTIFIER_MESSAGE_POLL_INTERVAL_MS,
          sendTimeoutMs: config.NOTIFIER_MESSAGE_SEND_TIMEOUT_MS,
          retryBaseMs: config.NOTIFIER_MESSAGE_RETRY_BASE_MS,
          maxRetryDelayMs: config.NOTIFIER_MESSAGE_RETRY_MAX_MS,
          maxAttempts: config.NOTIFIER_MESSAGE_MAX_ATTEMPTS,
        },
      );

      // No TTL indexes on FerretDB 1.24: finished deliveries, attempts, claims and the message log are trimmed here.
      const janitor = new RetentionJanitor(
        mongo.db,
        {
          days: { deliveries: config.NOTIFIER_DELIVERY_RETENTION_DAYS, messages: config.NOTIFIER_MESSAGE_RETENTION_DAYS },
          intervalMs: config.NOTIFIER_RETENTION_INTERVAL_MS,
        },
        clock,
        logger,
      );

      server.add(notificationV1.NotifierService, notifierHandlers({ endpoints, deliveries, webhookHealth, recoveries, clock }));

      // Two groups: an SMS or mail provider outage stalls messages only, never webhook acceptance.
      const groups = consumerGroups(config);
      const alive = { alarms: true, messages: true };
      const names = groupNames(config);
      const consumer = <N extends ChannelName>(
        group: keyof typeof names,
        handlers: ChannelHandlers<N>,
        partitions: number,
        recordsInFlight: number,
      ): EventConsumer =>
        createChannelConsumer<N>({
          kafka: platform.kafka,
          group: names[group],
          handlers,
          publisher: platform.publisher,
          logger,
          ...(prefix ? { prefix } : {}),
          partitionsConsumedConcurrently: partitions,
          recordsInFlight,
          onFatal: (error) => {
            alive[group] = false;
            logger.error({ err: error, topic: channelsOf(handlers).join() }, 'notifier consumer down; health reports NOT_SERVING until it rejoins');
          },
          onRecovered: () => {
            alive[group] = true;
          },
        });
      const consumers = [
        consumer(
          'alarms',
          { [TopicNames.AlarmTriggered]: alarmTriggeredHandler(accept, logger) },
          config.NOTIFIER_PARTITIONS_CONCURRENTLY,
          config.NOTIFIER_RECORDS_IN_FLIGHT,
        ),
        consumer('messages', { [TopicNames.MessageRequested]: messageRequestedHandler(queueMessage, logger) }, 1, 1),
      ];
      platform.checks['alarm-consumer'] = async () => alive.alarms;
      platform.checks['message-consumer'] = async () => alive.messages;

      const stopParts = async (): Promise<void> => {
        // Drain first: attempts in flight finish and are recorded. Alarms consumed meanwhile are stored
        // and queued in the database (the stopped worker takes none), so nothing is lost.
        await recoveries.stop();
        await worker.stop({ graceMs: STOP_GRACE_MS });
        await stats.stop();
        await messageWorker.stop(STOP_GRACE_MS);
        await janitor.stop();
        await Promise.all(consumers.map((c) => c.stop()));
        await changeWatcher.stop();
        sender.close();
        messages.close();
      };
      try {
        await changeWatcher.start();
        worker.start();
        stats.start();
        messageWorker.start();
        janitor.start();
        await Promise.all(consumers.map((c) => c.start()));
      } catch (error) {
        await stopParts();
        throw error;
      }
      logger.info({ instanceId, groups, outbox: messages.outboxDir }, 'notifier ready');
      return { stop: stopParts };
    },
    opts,
  );
}
