import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKafkaClient, createPublisher, deleteTopics, publishOn, TopicNames, type Publisher } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { connectMongo, databaseName, type MongoHandle } from '@stormhook/mongo';
import type { alarmV1, notificationV1 } from '@stormhook/proto';
import { serviceTestEnv, testInfra } from '@stormhook/testing';
import type { Kafka } from 'kafkajs';
import { NOTIFIER_TOPICS } from '../service.js';

/**
 * A private world for a notifier under test: its own topic prefix, database prefix and outbox
 * directory on the real broker and database, a publisher on the prefixed topics, and the
 * notifier's database for assertions. `cleanup()` removes all of it.
 */
export interface KafkaTestEnv {
  /** Environment for loadConfig / a spawned main.js. */
  env: Record<string, string>;
  outboxDir: string;
  kafka: Kafka;
  publisher: Publisher;
  /** The notifier's own database (`<dbPrefix>_notifier`). */
  mongo: MongoHandle;
  publishAlarm(event: alarmV1.AlarmTriggered, eventId?: string): Promise<void>;
  publishMessage(message: notificationV1.MessageRequested): Promise<void>;
  cleanup(): Promise<void>;
}

export async function createKafkaTestEnv(extra: Record<string, string> = {}): Promise<KafkaTestEnv> {
  const infra = testInfra();
  const service = serviceTestEnv('ntfk', infra);
  const { topicPrefix: prefix, dbPrefix } = service;
  const outboxDir = await mkdtemp(join(tmpdir(), 'notifier-outbox-'));
  const env: Record<string, string> = {
    ...service.env,
    LOG_LEVEL: 'info',
    NOTIFIER_SSRF_ALLOW_CIDRS: '127.0.0.1/32',
    NOTIFIER_DEV_OUTBOX_DIR: outboxDir,
    NOTIFIER_POLL_INTERVAL_MS: '50',
    ...extra,
  };
  const logger = createLogger({ service: 'notifier-kafka-test', level: 'silent' });
  const kafka = createKafkaClient({ brokers: infra.kafkaBrokers, credentials: infra.kafkaCredentials, clientId: 'notifier-kafka-test', logger });
  const publisher = createPublisher(kafka, { logger, clientId: 'notifier-kafka-test', prefix });
  const mongo = await connectMongo({ url: infra.mongoUrl, dbName: databaseName('notifier', dbPrefix), appName: 'notifier-kafka-test' });
  return {
    env,
    outboxDir,
    kafka,
    publisher,
    mongo,
    async publishAlarm(event, eventId) {
      await publishOn(publisher, TopicNames.AlarmTriggered, [{ key: event.accountId, message: event, ...(eventId ? { eventId } : {}) }]);
    },
    async publishMessage(message) {
      await publishOn(publisher, TopicNames.MessageRequested, [{ key: message.recipient, message }]);
    },
    async cleanup() {
      await publisher.disconnect();
      await deleteTopics(kafka, NOTIFIER_TOPICS, { prefix }).catch(() => undefined);
      const admin = kafka.admin();
      await admin.connect();
      const groups = (await admin.listGroups()).groups.map((g) => g.groupId).filter((g) => g.startsWith(`${prefix}.`));
      if (groups.length > 0) await admin.deleteGroups(groups).catch(() => undefined); // a group still settling is left to expire
      await admin.disconnect();
      await mongo.db.dropDatabase().catch(() => undefined);
      await mongo.close();
      await rm(outboxDir, { recursive: true, force: true });
    },
  };
}
