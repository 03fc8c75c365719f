/**
 * Benchmark (not a test): ingest throughput end to end on the real broker and database, from the
 * feed topics to the weather topics, through an ingest service started in this process.
 *
 *   KAFKA_BROKERS=127.0.0.1:9092 MONGO_URL=mongodb://127.0.0.1:27017 \
 *     node services/ingest/dist/bench/ingest-bench.js [--records 20000] [--concurrency 12] [--in-flight 1000]
 *
 * Phase 1 publishes a backlog (80 % lightning, 15 % precipitation, 5 % thunderstorm) as fast as the
 * producer takes it and reports records per second (and lightning strikes per second), first publish
 * to last weather event. Phase 2
 * publishes lightning at a steady 20 records/s and reports the per-record latency (feed publish to
 * weather event, broker timestamp). Cleans up its topics, consumer groups and database.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import {
  allTopics,
  createKafkaClient,
  createPublisher,
  deleteTopics,
  ensureTopics,
  EventTypes,
  TopicNames,
  type EventToPublish,
  type TopicName,
} from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { feedV1, weatherV1 } from '@stormhook/proto';
import { machineDescription, reportBench, serviceTestEnv, testInfra, uniqueName } from '@stormhook/testing';
import { MongoClient } from 'mongodb';
import { loadConfig } from '../config.js';
import { consumerGroup, start } from '../service.js';
import { lightning, precipitation, thunderstorm } from '../test-support/feed-fixtures.js';
import { TopicTap, waitFor } from '../test-support/topic-tap.js';
import { newCounters } from '../transport/feed-handler.js';

const { values } = parseArgs({ options: { records: { type: 'string' }, concurrency: { type: 'string' }, 'in-flight': { type: 'string' } } });
const total = Number(values.records ?? 20_000);
const concurrency = values.concurrency ?? '12';
const inFlight = values['in-flight'] ?? '1000';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** The feed records: spread over Turkey so they land on many areas and partitions. */
function feedRecords(now: number): Array<{ topic: TopicName; event: EventToPublish }> {
  const out: Array<{ topic: TopicName; event: EventToPublish }> = [];
  for (let i = 0; i < total; i++) {
    const lng = 27 + ((i * 7.31) % 17);
    const lat = 36.5 + ((i * 3.17) % 5);
    const id = `bench-${i}`;
    const kind = i % 20;
    if (kind < 16) {
      out.push({
        topic: TopicNames.FeedLightning,
        event: {
          key: id,
          eventType: EventTypes.LightningStrike,
          value: feedV1.LightningStrike.encode(lightning({ sourceEventId: id, latitude: lat, longitude: lng }, now)),
        },
      });
    } else if (kind < 19) {
      const msg = precipitation({ sourceEventId: id }, now);
      const ring = msg.geometry!.polygons[0]!.exterior!;
      ring.points = ring.points.map((p) => ({ lng: p.lng - 32.85 + lng, lat: p.lat - 39.93 + lat }));
      out.push({
        topic: TopicNames.FeedPrecipitation,
        event: { key: id, eventType: EventTypes.PrecipitationObservation, value: feedV1.PrecipitationObservation.encode(msg) },
      });
    } else {
      out.push({
        topic: TopicNames.FeedThunderstorm,
        event: { key: id, eventType: EventTypes.ThunderstormCell, value: feedV1.ThunderstormCell.encode(thunderstorm({ sourceEventId: id }, now)) },
      });
    }
  }
  return out;
}

async function main(): Promise<void> {
  const infra = testInfra();
  const logger = createLogger({ service: 'ingest-bench', level: 'silent' });
  const { env, topicPrefix: prefix, dbPrefix } = serviceTestEnv('ingest-bench', infra);
  const config = loadConfig({
    ...env,
    INGEST_PARTITIONS_CONCURRENTLY: concurrency,
    INGEST_RECORDS_IN_FLIGHT: inFlight,
  });
  const kafka = createKafkaClient({ brokers: infra.kafkaBrokers, credentials: infra.kafkaCredentials, clientId: 'ingest-bench', logger });
  await ensureTopics(kafka, allTopics(), { prefix });
  const counters = newCounters();
  const tap = new TopicTap(
    kafka,
    [TopicNames.WeatherLightning, TopicNames.WeatherPrecipitation, TopicNames.WeatherThunderstorm],
    prefix,
    uniqueName('ingest-bench-tap'),
  );
  const publisher = createPublisher(kafka, { logger, clientId: 'ingest-bench', prefix });
  await publisher.connect();
  await tap.start();

  // Phase 1, backlog: everything published before ingest starts, so the figure is ingest's own pace
  // (not the bench publisher's, which shares this process); first to last weather event.
  const records = feedRecords(Date.now());
  const publishedAt = new Map<string, number>();
  let firstArrival = 0;
  let lastArrival = 0;
  tap.onRecord = () => {
    lastArrival = Date.now();
    firstArrival ||= lastArrival;
  };
  const started = Date.now();
  for (let i = 0; i < records.length; i += 200) {
    const batch = records.slice(i, i + 200);
    const byTopic = new Map<TopicName, EventToPublish[]>();
    for (const r of batch) byTopic.set(r.topic, [...(byTopic.get(r.topic) ?? []), r.event]);
    for (const [topic, events] of byTopic) await publisher.publish(topic, events);
    const at = Date.now();
    for (const r of batch) publishedAt.set(r.event.key!, at);
  }
  const publishMs = Date.now() - started;
  const service = await start(config, { logger, counters });
  await waitFor(() => tap.records.length >= total, 'the backlog on the weather topics', 600_000);
  const elapsedMs = lastArrival - firstArrival;
  const arrived = tap.records.length;

  // Phase 2, steady: 20 lightning records a second, the load of a busy storm day; latency without a queue.
  const steady = 200;
  const now = Date.now();
  for (let i = 0; i < steady; i++) {
    const id = `steady-${i}`;
    const value = feedV1.LightningStrike.encode(lightning({ sourceEventId: id, latitude: 36.5 + (i % 50) / 10, longitude: 27 + (i % 170) / 10 }, now));
    publishedAt.set(id, Date.now());
    await publisher.publish(TopicNames.FeedLightning, [{ key: id, value, eventType: EventTypes.LightningStrike }]);
    await sleep(50);
  }
  await waitFor(() => tap.records.length >= total + steady, 'the steady records', 120_000);

  // Feed publish to weather event (broker timestamp): the delay a reader of the weather topics sees.
  const sourceIdOf = (topic: TopicName, value: Buffer): string =>
    topic === TopicNames.WeatherLightning
      ? weatherV1.LightningEvent.decode(value).sourceEventId
      : topic === TopicNames.WeatherPrecipitation
        ? weatherV1.PrecipitationEvent.decode(value).sourceEventId
        : weatherV1.ThunderstormEvent.decode(value).sourceEventId;
  const latency = (prefixOfId: string) =>
    tap.records
      .map((r) => ({ id: sourceIdOf(r.topic, r.value), at: r.timestampMs }))
      .filter((r) => r.id.startsWith(prefixOfId))
      .map((r) => r.at - (publishedAt.get(r.id) ?? Number.NaN))
      .filter((ms) => Number.isFinite(ms))
      .sort((a, b) => a - b);
  const steadyLatency = latency('steady-');

  const throughput = Math.round((arrived / elapsedMs) * 1000);
  // Strikes per second from the first to the last lightning event ingest wrote (broker timestamps).
  const strikeTimes = tap.records
    .filter((r) => r.topic === TopicNames.WeatherLightning && sourceIdOf(r.topic, r.value).startsWith('bench-'))
    .map((r) => r.timestampMs);
  const strikeRate = Math.round((strikeTimes.length / Math.max(1, Math.max(...strikeTimes) - Math.min(...strikeTimes))) * 1000);
  console.log('ingest benchmark: feed topics -> ingest -> weather topics (real Kafka, real database)');
  console.log(`machine: ${machineDescription()}`);
  console.log(`infrastructure: Kafka at ${infra.kafkaBrokers.join(',')}, database at ${infra.mongoUrl.replace(/\/\/[^@]*@/, '//***@')}`);
  console.log(
    `backlog: ${total} records (80 % lightning, 15 % precipitation, 5 % thunderstorm) published in ${publishMs} ms before ingest started; ${concurrency} partitions processed concurrently, ${inFlight} records in flight per partition`,
  );
  console.log(`  first to last weather event ${elapsedMs} ms: ${throughput} records/s (${strikeRate} lightning strikes/s)`);
  console.log(`steady: ${steady} lightning records at 20/s: latency p50 ${percentile(steadyLatency, 50)} ms, p99 ${percentile(steadyLatency, 99)} ms`);
  for (const topic of [TopicNames.WeatherLightning, TopicNames.WeatherPrecipitation, TopicNames.WeatherThunderstorm] as const) {
    const times = tap.records.filter((r) => r.topic === topic && sourceIdOf(r.topic, r.value).startsWith('bench-')).map((r) => r.timestampMs);
    console.log(`  ${topic}: ${times.length} events over ${Math.max(...times) - Math.min(...times)} ms`);
  }
  console.log(`ingest counters: ${JSON.stringify(counters)}`);
  const bench = 'ingest end to end (feed topic -> weather topic)';
  reportBench({
    bench,
    metric: 'throughput',
    value: throughput,
    unit: 'records/s',
    note: `backlog of ${total} records (80 % lightning, 15 % precipitation, 5 % thunderstorm); ${inFlight} records in flight per partition`,
  });
  reportBench({ bench, metric: 'lightning strikes', value: strikeRate, unit: 'strikes/s', note: `the lightning records (80 %) of the same backlog` });
  reportBench({ bench, metric: 'p50 latency at 20 records/s', value: percentile(steadyLatency, 50), unit: 'ms', note: 'feed publish to weather event' });
  reportBench({ bench, metric: 'p99 latency at 20 records/s', value: percentile(steadyLatency, 99), unit: 'ms', note: 'feed publish to weather event' });

  await tap.stop();
  await publisher.disconnect();
  await service.stop();
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
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
