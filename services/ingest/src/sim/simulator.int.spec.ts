import assert from 'node:assert/strict';
import type { Kafka } from 'kafkajs';
import { allTopics, createKafkaClient, createPublisher, deleteTopics, ensureTopics, TopicNames, type Publisher } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import type { RunningGrpcService } from '@stormhook/service-kit';
import { serviceTestEnv, testInfra, uniqueName } from '@stormhook/testing';
import { MongoClient } from 'mongodb';
import { loadConfig } from '../config.js';
import { consumerGroup, start } from '../service.js';
import { TopicTap, waitFor } from '../test-support/topic-tap.js';
import { newCounters } from '../transport/feed-handler.js';
import { runSimulator } from './run.js';

const logger = createLogger({ service: 'sim-it', level: 'silent' });

describe('feed simulator through ingest (real Kafka and database)', function () {
  this.timeout(60_000);
  const infra = testInfra();
  const { env, topicPrefix: prefix, dbPrefix } = serviceTestEnv('sim-it', infra);
  const config = loadConfig(env);
  const counters = newCounters();
  let kafka: Kafka;
  let service: RunningGrpcService;
  let publisher: Publisher;
  let tap: TopicTap;

  before(async () => {
    kafka = createKafkaClient({ brokers: infra.kafkaBrokers, credentials: infra.kafkaCredentials, clientId: 'sim-it', logger });
    await ensureTopics(kafka, allTopics(), { prefix });
    service = await start(config, { logger, counters });
    publisher = createPublisher(kafka, { logger, clientId: 'sim-it', prefix });
    tap = new TopicTap(kafka, [TopicNames.DeadLetter], prefix, uniqueName('sim-it-tap'));
    await tap.start();
  });

  after(async () => {
    await tap?.stop();
    await publisher?.disconnect();
    await service?.stop();
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteGroups([consumerGroup(config), tap.groupId]).catch(() => undefined);
    await admin.disconnect();
    await deleteTopics(
      kafka,
      allTopics().map((t) => t.name),
      { prefix },
    );
    const mongo = new MongoClient(infra.mongoUrl);
    await mongo.db(`${dbPrefix}_ingest`).dropDatabase();
    await mongo.close();
  });

  it('publishes the last 20 minutes of weather, all of it accepted by ingest', async () => {
    const summary = await runSimulator({
      sink: publisher,
      durationMs: 20 * 60_000,
      sim: { seed: 11, storms: 8, forecast: { days: 1, gridDeg: 2 } },
    });
    const total = Object.values(summary.records).reduce((n, c) => n + c, 0);
    assert.ok((summary.records[TopicNames.FeedPrecipitation] ?? 0) > 0, 'some precipitation');
    assert.ok((summary.records[TopicNames.FeedForecast] ?? 0) > 0, 'a forecast run');
    await waitFor(() => counters.published + counters.duplicate + counters.stale + counters.rejected >= total, `ingest to handle ${total} records`, 45_000);
    assert.equal(counters.rejected, 0);
    assert.equal(tap.records.length, 0, 'no dead letters');
    assert.equal(counters.published, total);
  });
});
