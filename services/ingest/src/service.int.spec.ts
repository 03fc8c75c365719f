import assert from 'node:assert/strict';
import { MongoClient } from 'mongodb';
import type { Kafka } from 'kafkajs';
import {
  allTopics,
  createKafkaClient,
  createPublisher,
  ensureTopics,
  EventTypes,
  TopicNames,
  type EventType,
  type Publisher,
  type TopicName,
} from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { feedV1, weatherV1 } from '@stormhook/proto';
import type { RunningGrpcService } from '@stormhook/service-kit';
import { removeServiceTestEnv, serviceTestEnv, testInfra } from '@stormhook/testing';
import { loadConfig, start } from './index.js';
import { forecast, lightning, precipitation, thunderstorm } from './test-support/feed-fixtures.js';
import { TopicTap, waitFor } from './test-support/topic-tap.js';

const logger = createLogger({ service: 'ingest-it', level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });

describe('ingest service (real Kafka and database)', function () {
  this.timeout(60_000);
  const infra = testInfra();
  const testEnv = serviceTestEnv('ingest-it', infra);
  const { topicPrefix: prefix, dbPrefix } = testEnv;
  const config = loadConfig({ ...testEnv.env, LOG_LEVEL: 'silent' });
  let kafka: Kafka;
  let service: RunningGrpcService;
  let feeds: Publisher;
  let tap: TopicTap;
  let mongo: MongoClient;

  before(async () => {
    kafka = createKafkaClient({ brokers: infra.kafkaBrokers, credentials: infra.kafkaCredentials, clientId: 'ingest-it', logger });
    await ensureTopics(kafka, allTopics(), { prefix });
    service = await start(config, { logger });
    feeds = createPublisher(kafka, { logger, clientId: 'ingest-it-feeds', prefix });
    tap = new TopicTap(
      kafka,
      [TopicNames.WeatherPrecipitation, TopicNames.WeatherLightning, TopicNames.WeatherThunderstorm, TopicNames.WeatherForecast, TopicNames.DeadLetter],
      prefix,
      // Under the test's prefix, so the cleanup finds its group with the service's.
      `${prefix}.tap`,
    );
    await tap.start();
    mongo = new MongoClient(infra.mongoUrl);
  });

  after(async () => {
    await tap?.stop();
    await feeds?.disconnect();
    await service?.stop();
    await mongo.close();
    await removeServiceTestEnv(infra, testEnv);
  });

  const send = (topic: TopicName, eventType: EventType, key: string, value: Uint8Array) => feeds.publish(topic, [{ key, value, eventType }]);

  const decodedOn = <T>(topic: TopicName, decode: (b: Buffer) => T) => tap.on(topic).map((r) => ({ record: r, event: decode(r.value) }));

  it('publishes normalised events of all four feeds, keyed by area', async () => {
    const now = Date.now();
    await send(
      TopicNames.FeedPrecipitation,
      EventTypes.PrecipitationObservation,
      'all-p',
      feedV1.PrecipitationObservation.encode(precipitation({ sourceEventId: 'all-p', intensity: undefined, rainRateMmPerH: 30 }, now)),
    );
    await send(
      TopicNames.FeedLightning,
      EventTypes.LightningStrike,
      'all-l',
      feedV1.LightningStrike.encode(lightning({ sourceEventId: 'all-l', latitude: 41.01, longitude: 28.98 }, now)),
    );
    await send(
      TopicNames.FeedThunderstorm,
      EventTypes.ThunderstormCell,
      'all-t',
      feedV1.ThunderstormCell.encode(thunderstorm({ sourceEventId: 'all-t' }, now)),
    );
    await send(TopicNames.FeedForecast, EventTypes.ForecastGrid, 'all-f', feedV1.ForecastGrid.encode(forecast({ runId: 'all-f' }, now)));

    await waitFor(
      () =>
        tap.on(TopicNames.WeatherForecast).length >= 2 &&
        tap.on(TopicNames.WeatherThunderstorm).length >= 1 &&
        tap.on(TopicNames.WeatherLightning).length >= 1 &&
        tap.on(TopicNames.WeatherPrecipitation).length >= 1,
      'events of all four feeds',
    );

    const [p] = decodedOn(TopicNames.WeatherPrecipitation, (b) => weatherV1.PrecipitationEvent.decode(b)).filter((x) => x.event.sourceEventId === 'all-p');
    assert.equal(p!.record.key, 'sxp');
    assert.equal(p!.record.headers['event-type'], EventTypes.PrecipitationEvent);
    assert.equal(p!.event.eventId, 'prc_all-p');
    assert.equal(p!.event.intensity, 'PRECIPITATION_INTENSITY_VERY_HEAVY');
    assert.equal(p!.event.revision!.revision, 1);

    const [l] = decodedOn(TopicNames.WeatherLightning, (b) => weatherV1.LightningEvent.decode(b)).filter((x) => x.event.sourceEventId === 'all-l');
    assert.equal(l!.record.key, 'sxk'); // Istanbul
    assert.deepEqual(l!.event.location, { lng: 28.98, lat: 41.01 });

    const [t] = decodedOn(TopicNames.WeatherThunderstorm, (b) => weatherV1.ThunderstormEvent.decode(b)).filter((x) => x.event.sourceEventId === 'all-t');
    assert.equal(t!.record.key, 'sxp');
    assert.equal(t!.event.cell!.speedKmh, 33.3);

    const f = decodedOn(TopicNames.WeatherForecast, (b) => weatherV1.ForecastEvent.decode(b)).filter((x) => x.event.runId === 'all-f');
    assert.deepEqual(f.map((x) => x.record.key).sort(), ['sxk', 'sxp']);
    assert.ok(f.every((x) => x.event.cells.length === 1 && x.event.hourCount === 3));
  });

  it('dead-letters a bad record with the reason, and the records after it still flow', async () => {
    const now = Date.now();
    // Same key, hence same partition: the good record is behind the bad one.
    await send(
      TopicNames.FeedLightning,
      EventTypes.LightningStrike,
      'dl',
      feedV1.LightningStrike.encode(lightning({ sourceEventId: 'dl-bad', latitude: 123 }, now)),
    );
    await send(TopicNames.FeedLightning, EventTypes.LightningStrike, 'dl', Buffer.from('not protobuf at all, just text'));
    await send(TopicNames.FeedLightning, EventTypes.LightningStrike, 'dl', feedV1.LightningStrike.encode(lightning({ sourceEventId: 'dl-good' }, now)));

    await waitFor(
      () => decodedOn(TopicNames.WeatherLightning, (b) => weatherV1.LightningEvent.decode(b)).some((x) => x.event.sourceEventId === 'dl-good'),
      'the good record behind the bad ones',
    );
    const dead = tap.on(TopicNames.DeadLetter).filter((r) => r.key === 'dl');
    assert.equal(dead.length, 2);
    assert.match(dead[0]!.headers['deadletter-reason']!, /^invalid LightningStrike: latitude: 123 degrees is outside -90 to 90/);
    assert.equal(dead[0]!.headers['deadletter-source-topic'], `${prefix}.${TopicNames.FeedLightning}`);
    assert.equal(dead[0]!.headers['event-type'], EventTypes.LightningStrike);
    assert.match(dead[1]!.headers['deadletter-reason']!, /LightningStrike/);
    assert.ok(!decodedOn(TopicNames.WeatherLightning, (b) => weatherV1.LightningEvent.decode(b)).some((x) => x.event.sourceEventId === 'dl-bad'));
  });

  it('does not double a duplicate', async () => {
    const now = Date.now();
    const strike = feedV1.LightningStrike.encode(lightning({ sourceEventId: 'dup-1' }, now));
    await send(TopicNames.FeedLightning, EventTypes.LightningStrike, 'dup', strike);
    await send(TopicNames.FeedLightning, EventTypes.LightningStrike, 'dup', strike);
    await send(TopicNames.FeedLightning, EventTypes.LightningStrike, 'dup', feedV1.LightningStrike.encode(lightning({ sourceEventId: 'dup-marker' }, now)));

    const events = () => decodedOn(TopicNames.WeatherLightning, (b) => weatherV1.LightningEvent.decode(b));
    await waitFor(() => events().some((x) => x.event.sourceEventId === 'dup-marker'), 'the marker behind the duplicate');
    assert.equal(events().filter((x) => x.event.sourceEventId === 'dup-1').length, 1);
    const seen = await mongo.db(`${dbPrefix}_ingest`).collection<{ _id: string; revision: number }>('seen_records').find({ _id: 'lightning:dup-1' }).toArray();
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.revision, 1);
  });

  it('publishes an update as a new revision that supersedes, and ignores the late older version', async () => {
    const now = Date.now();
    const cell = (version: number, severity: weatherV1.ThunderstormSeverity, id = 'upd-1') =>
      feedV1.ThunderstormCell.encode(thunderstorm({ sourceEventId: id, version, severity }, now));
    await send(TopicNames.FeedThunderstorm, EventTypes.ThunderstormCell, 'upd', cell(1, 'THUNDERSTORM_SEVERITY_LOW'));
    await send(TopicNames.FeedThunderstorm, EventTypes.ThunderstormCell, 'upd', cell(2, 'THUNDERSTORM_SEVERITY_HIGH'));
    await send(TopicNames.FeedThunderstorm, EventTypes.ThunderstormCell, 'upd', cell(1, 'THUNDERSTORM_SEVERITY_MEDIUM'));
    await send(TopicNames.FeedThunderstorm, EventTypes.ThunderstormCell, 'upd', cell(1, 'THUNDERSTORM_SEVERITY_LOW', 'upd-marker'));

    const events = () => decodedOn(TopicNames.WeatherThunderstorm, (b) => weatherV1.ThunderstormEvent.decode(b));
    await waitFor(() => events().some((x) => x.event.sourceEventId === 'upd-marker'), 'the marker behind the updates');
    const updates = events().filter((x) => x.event.sourceEventId === 'upd-1');
    assert.deepEqual(
      updates.map((x) => [x.event.eventId, x.event.revision!.revision, x.event.revision!.sourceVersion, x.event.severity]),
      [
        ['tst_upd-1', 1, 1, 'THUNDERSTORM_SEVERITY_LOW'],
        ['tst_upd-1', 2, 2, 'THUNDERSTORM_SEVERITY_HIGH'],
      ],
    );
    // Two revisions of one event: same key (one partition, in order), different Kafka event ids.
    assert.equal(updates[0]!.record.partition, updates[1]!.record.partition);
    assert.notEqual(updates[0]!.record.headers['event-id'], updates[1]!.record.headers['event-id']);
  });
});
