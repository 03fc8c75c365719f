import type { Admin, Kafka } from 'kafkajs';
import {
  createKafkaClient,
  createPublisher,
  isKafkaPrincipal,
  kafkaConnectionOf,
  kafkaHealth,
  producedBy,
  type KafkaConnectionConfig,
  type Publisher,
} from '@stormhook/kafka';
import { createLogger, type Logger } from '@stormhook/logger';
import { connectMongo, serviceDatabase, type MongoHandle } from '@stormhook/mongo';
import { initTelemetry, type Telemetry } from '@stormhook/telemetry';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { DependencyCheck } from './dependency-monitor.js';
import { startMetricsServer } from './metrics-server.js';

/** The part of every service's config that service-kit reads (see `platformEnv`). */
export interface PlatformConfig extends KafkaConnectionConfig {
  readonly MONGO_URL: string;
  readonly LOG_LEVEL: string;
  readonly OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
  readonly STORMHOOK_TOPIC_PREFIX?: string | undefined;
  readonly STORMHOOK_DB_PREFIX?: string | undefined;
  readonly METRICS_PORT?: number | undefined;
  readonly METRICS_HOST?: string | undefined;
}

/** What every service stands on: logs, traces, its own database, and Kafka. */
export interface Platform {
  readonly service: string;
  readonly logger: Logger;
  readonly telemetry: Telemetry;
  readonly kafka: Kafka;
  readonly publisher: Publisher;
  readonly mongo: MongoHandle;
  readonly topicPrefix: string | undefined;
  /**
   * The service's Prometheus registry (process and Node metrics included); services add their own.
   * Served at /metrics on METRICS_PORT when set.
   */
  readonly metrics: Registry;
  /** The port /metrics is served on (METRICS_PORT may be 0 in tests), or undefined. */
  readonly metricsPort: number | undefined;
  /** Probes of Kafka and the database, for health answers. */
  readonly checks: Record<string, DependencyCheck>;
  stop(): Promise<void>;
}

export interface PlatformOptions {
  /** Tests pass their own logger (silent, or collecting lines). */
  logger?: Logger;
}

/**
 * Connects a service to its infrastructure and fails fast (with the reason in the log) when Kafka
 * or the database cannot be reached at start. Each service has its own database,
 * `<prefix>_<service>` (packages/mongo/src/database-access.ts), and in a deployment its own login
 * with rights on that database only, so none can read another's collections.
 */
export async function startPlatform(service: string, config: PlatformConfig, opts: PlatformOptions = {}): Promise<Platform> {
  const logger = opts.logger ?? createLogger({ service, level: config.LOG_LEVEL });
  const telemetry = initTelemetry({
    serviceName: service,
    ...(config.OTEL_EXPORTER_OTLP_ENDPOINT ? { otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT } : {}),
  });
  const cleanups: Array<() => Promise<void>> = [() => telemetry.shutdown()];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error: unknown) => logger.warn({ err: error }, 'cleanup failed during stop'));
    }
  };
  try {
    const mongo = await connectMongo({
      url: config.MONGO_URL,
      dbName: serviceDatabase(service, config.STORMHOOK_DB_PREFIX),
      appName: `stormhook-${service}`,
      logger,
    });
    cleanups.push(() => mongo.close());

    const kafka = createKafkaClient({ ...kafkaConnectionOf(config), clientId: `stormhook-${service}`, logger });
    const admin: Admin = kafka.admin();
    await admin.connect();
    cleanups.push(() => admin.disconnect());
    const publisher = createPublisher(kafka, {
      logger,
      clientId: `stormhook-${service}`,
      ...(config.STORMHOOK_TOPIC_PREFIX ? { prefix: config.STORMHOOK_TOPIC_PREFIX } : {}),
    });
    // A service the access table lets write nowhere (geo) starts no producer: an idempotent producer
    // asks the broker for a producer id, which it grants only to a principal that may write a topic.
    if (!isKafkaPrincipal(service) || producedBy(service).length > 0) {
      await publisher.connect();
      cleanups.push(() => publisher.disconnect());
    }

    const metrics = new Registry();
    metrics.setDefaultLabels({ service });
    collectDefaultMetrics({ register: metrics });
    let metricsPort: number | undefined;
    if (config.METRICS_PORT !== undefined) {
      const server = await startMetricsServer(metrics, config.METRICS_HOST ?? '0.0.0.0', config.METRICS_PORT);
      cleanups.push(() => server.close());
      metricsPort = server.port;
      logger.info({ port: server.port }, 'Prometheus metrics served at /metrics');
    }

    logger.info({ kafka: config.KAFKA_BROKERS, kafkaPrincipal: config.KAFKA_USERNAME, db: mongo.db.databaseName }, 'connected to Kafka and the database');
    return {
      service,
      logger,
      telemetry,
      kafka,
      publisher,
      mongo,
      topicPrefix: config.STORMHOOK_TOPIC_PREFIX,
      metrics,
      metricsPort,
      checks: {
        kafka: async () => (await kafkaHealth(admin)).ok,
        database: () => mongo.ping(),
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
