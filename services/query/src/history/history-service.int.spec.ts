import assert from 'node:assert/strict';
import { createClient, GrpcError, GrpcStatus, testInternalTokens } from '@stormhook/grpc';
import { createKafkaClient, createPublisher, EventTypes, publishOn, TopicNames, type Publisher } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { queryV1, weatherV1 } from '@stormhook/proto';
import type { RunningGrpcService } from '@stormhook/service-kit';
import { removeServiceTestEnv, serviceTestEnv, testInfra, uniqueName } from '@stormhook/testing';
import type { GeoAreasClient } from '@stormhook/access';
import { loadConfig, newHistoryCounters, start } from '../index.js';
import { forecast, lightning, precipitation, thunderstorm } from './test-support/weather-values.js';

const logger = createLogger({ service: 'query-history-it', level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
const noAreas: GeoAreasClient = { listCountries: async () => ({ countries: [] }), listCities: async () => ({ cities: [] }) };
const BOX = { minLng: 32.79, minLat: 39.885, maxLng: 32.91, maxLat: 39.975 };

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the weather history service (real Kafka and database)', function () {
  this.timeout(90_000);
  const infra = testInfra();
  const testEnv = serviceTestEnv('query-hist', infra);
  const config = loadConfig({ ...testEnv.env, LOG_LEVEL: 'silent', QUERY_COMPACT_INTERVAL_MS: '200', QUERY_HISTORY_JOURNAL_MAX_AGE_MS: '500' });
  const counters = newHistoryCounters();
  const kafka = createKafkaClient({ brokers: infra.kafkaBrokers, credentials: infra.kafkaCredentials, clientId: uniqueName('qh-test'), logger });
  let publisher: Publisher;
  let service: RunningGrpcService | undefined;
  // The back-test's caller.
  const matcher = testInternalTokens('alarm-matcher').serviceTokenFor('query');
  const history = () => createClient(queryV1.WeatherHistoryService, `127.0.0.1:${service!.port}`, { deadlineMs: 10_000, internalToken: matcher });

  before(async () => {
    service = await start(config, { logger, geo: noAreas, historyCounters: counters });
    publisher = createPublisher(kafka, { logger, clientId: uniqueName('qh-pub'), prefix: testEnv.topicPrefix });
    await publisher.connect();
  });

  after(async () => {
    await publisher?.disconnect();
    await service?.stop();
    await removeServiceTestEnv(infra, testEnv);
  });

  async function readAll(request: Partial<queryV1.ReadHistoryRequest>): Promise<queryV1.HistoryRecord[]> {
    const client = history();
    try {
      const out: queryV1.HistoryRecord[] = [];
      let pageToken = '';
      do {
        const page = await client.readHistory({ fromEpochMs: 0, toEpochMs: 0, kinds: [], maxPageBytes: 0, ...request, pageToken });
        out.push(...page.records);
        pageToken = page.nextPageToken;
      } while (pageToken !== '');
      return out;
    } finally {
      client.close();
    }
  }

  it('keeps what is published on the four weather topics, exactly as published, once each, across a restart', async () => {
    const t = Date.now() - 60_000;
    const strikes = Array.from({ length: 40 }, (_, i) => lightning(32.85 + (i % 5) * 0.01, 39.93, t + i * 100));
    const storm = thunderstorm(32.8, 39.7, t + 50);
    const rain = precipitation(32.7, 39.8, t + 60);
    const grid = forecast(32.85, 39.9, t + 70);
    const far = lightning(35, 38, t + 80);
    await publishOn(
      publisher,
      TopicNames.WeatherLightning,
      [...strikes, far].map((m) => ({ key: m.areaKey, message: m })),
    );
    // A re-published strike (same event id and revision): kept once.
    await publishOn(publisher, TopicNames.WeatherLightning, [{ key: strikes[0]!.areaKey, message: strikes[0]! }]);
    await publishOn(publisher, TopicNames.WeatherThunderstorm, [{ key: 'sxk', message: storm }]);
    await publishOn(publisher, TopicNames.WeatherPrecipitation, [{ key: 'sxk', message: rain }]);
    await publishOn(publisher, TopicNames.WeatherForecast, [{ key: 'sxk', message: grid }]);
    // Not a strike: left out, and the rest goes on.
    await publisher.publish(TopicNames.WeatherLightning, [{ key: 'sxk', value: Buffer.from([0xff, 0xff, 0xff]), eventType: EventTypes.LightningEvent }]);
    await until('the history to hold the records', () => counters.stored >= 44 && counters.skipped >= 1);

    const window = { fromEpochMs: t - 1_000, toEpochMs: t + 60_000, box: BOX };
    const expected = [
      ...strikes.map((m) => ['HISTORY_KIND_LIGHTNING', weatherV1.LightningEvent.encode(m)] as const),
      ['HISTORY_KIND_THUNDERSTORM', weatherV1.ThunderstormEvent.encode(storm)] as const,
      ['HISTORY_KIND_PRECIPITATION', weatherV1.PrecipitationEvent.encode(rain)] as const,
      ['HISTORY_KIND_FORECAST', weatherV1.ForecastEvent.encode(grid)] as const,
    ]
      .map(([kind, value]) => `${kind} ${Buffer.from(value).toString('hex')}`)
      .sort();
    const read = async () => (await readAll(window)).map((r) => `${r.kind} ${Buffer.from(r.value).toString('hex')}`).sort();
    assert.deepEqual(await read(), expected);

    // Compaction runs every 0.2 s for journals older than 0.5 s: after a restart the records come
    // back from the chunks (or from the journal, had the compaction not run yet).
    await new Promise((r) => setTimeout(r, 1_500));
    await service!.stop();
    service = await start(config, { logger, geo: noAreas, historyCounters: counters });
    assert.deepEqual(await read(), expected);

    const client = history();
    try {
      const first = await client.readHistory({ ...window, kinds: ['HISTORY_KIND_LIGHTNING'], pageToken: '', maxPageBytes: 0 });
      assert.deepEqual(
        first.coverage.map((c) => c.kind),
        ['HISTORY_KIND_LIGHTNING'],
      );
      assert.ok(first.coverage[0]!.covered.length >= 1);
    } finally {
      client.close();
    }
  });

  it('answers a bad request with INVALID_ARGUMENT naming the field', async () => {
    const client = history();
    try {
      await assert.rejects(
        client.readHistory({ fromEpochMs: 1_000, toEpochMs: 1_000 + 40 * 86_400_000, box: BOX, kinds: [], pageToken: '', maxPageBytes: 0 }),
        (error: unknown) => error instanceof GrpcError && error.code === GrpcStatus.INVALID_ARGUMENT && /to_epoch_ms/.test(error.message),
      );
      await assert.rejects(
        client.readHistory({ fromEpochMs: 1_000, toEpochMs: 2_000, box: { ...BOX, minLat: 95 }, kinds: [], pageToken: '', maxPageBytes: 0 }),
        (error: unknown) => error instanceof GrpcError && error.code === GrpcStatus.INVALID_ARGUMENT && /box.min_lat/.test(error.message),
      );
    } finally {
      client.close();
    }
  });

  it("lets the alarm-matcher read the history and none of query's /v1 reads", async () => {
    const reads = createClient(queryV1.QueryService, `127.0.0.1:${service!.port}`, { deadlineMs: 10_000, internalToken: matcher });
    try {
      await assert.rejects(
        reads.getThunderstorm({ eventId: 'tst_x' }),
        (error: unknown) => error instanceof GrpcError && error.code === GrpcStatus.PERMISSION_DENIED,
      );
    } finally {
      reads.close();
    }
  });
});
