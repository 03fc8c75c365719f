import assert from 'node:assert/strict';
import type { Kafka } from 'kafkajs';
import { allTopics, createKafkaClient, createPublisher, deleteTopics, ensureTopics, TopicNames, type Publisher } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { feedV1 } from '@stormhook/proto';
import { testInfra, uniqueName } from '@stormhook/testing';
import { fakeOpenMeteo, recordedAnswer, type FakeOpenMeteo } from '../test-support/open-meteo-server.js';
import { TopicTap, waitFor } from '../test-support/topic-tap.js';
import { fetchForecastRun, publishForecastRun } from './adapter.js';
import { parseGrid } from './grid.js';

const logger = createLogger({ service: 'open-meteo-it', level: 'silent' });

describe('Open-Meteo adapter to Kafka (real broker)', function () {
  this.timeout(30_000);
  const prefix = uniqueName('openmeteo-it');
  let kafka: Kafka;
  let publisher: Publisher;
  let server: FakeOpenMeteo;
  let tap: TopicTap;

  before(async () => {
    kafka = createKafkaClient({ brokers: testInfra().kafkaBrokers, credentials: testInfra().kafkaCredentials, clientId: 'open-meteo-it', logger });
    await ensureTopics(kafka, allTopics(), { prefix });
    publisher = createPublisher(kafka, { logger, clientId: 'open-meteo-it', prefix });
    server = await fakeOpenMeteo(() => ({ status: 200, body: recordedAnswer('forecast-istanbul-ankara') }));
    tap = new TopicTap(kafka, [TopicNames.FeedForecast], prefix, uniqueName('openmeteo-it-tap'));
    await tap.start();
  });

  after(async () => {
    await tap?.stop();
    await publisher?.disconnect();
    await server?.close();
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteGroups([tap.groupId]).catch(() => undefined);
    await admin.disconnect();
    await deleteTopics(
      kafka,
      allTopics().map((t) => t.name),
      { prefix },
    );
  });

  it('publishes the fetched run to feed.forecast.v1 as ForecastGrid records', async () => {
    const now = Date.UTC(2025, 5, 15, 6, 20);
    const chunks = await fetchForecastRun({
      baseUrl: server.baseUrl,
      points: parseGrid('41,29;40,33'),
      forecastDays: 1,
      model: 'best_match',
      locationsPerRequest: 50,
      timeoutMs: 5_000,
      clock: () => now,
    });
    await publishForecastRun(publisher, chunks);
    await waitFor(() => tap.records.length >= 1, 'the forecast record');
    const [record] = tap.records;
    assert.equal(record!.headers['event-type'], 'stormhook.feed.v1.ForecastGrid');
    assert.equal(record!.headers['content-type'], 'application/x-protobuf');
    assert.equal(record!.key, 'openmeteo-best_match-20250615T06#0');
    const grid = feedV1.ForecastGrid.decode(record!.value);
    assert.equal(grid.cells.length, 2);
    assert.equal(grid.cells[1]!.cellId, '40.000N_33.000E');
    assert.equal(grid.hourCount, 24);
  });
});
