import assert from 'node:assert/strict';
import { Partitioners, type Kafka, type KafkaMessage } from 'kafkajs';
import { weatherV1 } from '@stormhook/proto';
import { deleteTopics, ensureTopics } from './admin.js';
import { createChannelConsumer } from './channel-consumer.js';
import { publishOn } from './channel-events.js';
import type { EventConsumer } from './consumer.js';
import { EventTypes } from './event-types.js';
import { committedOffsets, deleteGroups, readAll, testKafka, testLogger, uniqueName, waitFor } from './int-support.js';
import { Outcomes } from './outcome.js';
import { createPublisher, type Publisher } from './publisher.js';
import { TopicNames, topicSpec } from './topics.js';

const logger = testLogger();

describe('channel consumer (real broker)', () => {
  let kafka: Kafka;
  let prefix: string;
  let publisher: Publisher;
  let consumer: EventConsumer | undefined;
  const specs = [{ ...topicSpec(TopicNames.WeatherLightning), partitions: 1 }, topicSpec(TopicNames.DeadLetter)];

  before(async () => {
    kafka = testKafka(logger);
    prefix = uniqueName('kafka-channel');
    await ensureTopics(kafka, specs, { prefix });
    publisher = createPublisher(kafka, { logger, clientId: 'kafka-channel', prefix });
  });

  after(async () => {
    await consumer?.stop();
    await publisher.disconnect();
    if (consumer) await deleteGroups(kafka, [consumer.groupId]);
    await deleteTopics(
      kafka,
      specs.map((s) => s.name),
      { prefix },
    );
  });

  it('hands the handler decoded messages and dead-letters a record of the wrong type or bytes, with the reason', async () => {
    const topic = `${prefix}.${TopicNames.WeatherLightning}`;
    const strike = (eventId: string) => ({ key: 'sxk', message: weatherV1.LightningEvent.create({ eventId, peakCurrentAmperes: 9_000 }) });
    await publishOn(publisher, TopicNames.WeatherLightning, [strike('ltg_0')]);
    // A foreign producer puts a storm on the lightning topic (our publisher would refuse to).
    const raw = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await raw.connect();
    await raw.send({
      topic,
      messages: [
        { key: 'sxk', value: Buffer.from(strike('ltg_x').message.eventId), headers: { 'event-type': EventTypes.ThunderstormEvent, 'event-id': 'evt_storm' } },
      ],
    });
    await raw.disconnect();
    await publisher.publish(TopicNames.WeatherLightning, [
      { key: 'sxk', value: Buffer.from([0x0a, 0xff, 0xff, 0xff]), eventType: EventTypes.LightningEvent, eventId: 'evt_bytes' },
    ]);
    await publishOn(publisher, TopicNames.WeatherLightning, [strike('ltg_3')]);

    const handled: string[] = [];
    const rejected: string[] = [];
    consumer = createChannelConsumer({
      kafka,
      group: 'channel-group',
      handlers: {
        [TopicNames.WeatherLightning]: async (record) => {
          handled.push(`${record.message.eventId} ${record.message.peakCurrentAmperes} @${record.offset}`);
          return Outcomes.ok();
        },
      },
      onRejected: (record) => rejected.push(record.offset),
      publisher,
      logger,
      prefix,
    });
    assert.equal(consumer.groupId, `${prefix}.channel-group`, 'the group is prefixed like the topics');
    await consumer.start();
    await waitFor(() => handled.length >= 2, 'the records after the poison ones');
    assert.deepEqual(handled, ['ltg_0 9000 @0', 'ltg_3 9000 @3']);
    assert.deepEqual(rejected, ['1', '2']);

    const dead = await readAll(kafka, `${prefix}.${TopicNames.DeadLetter}`, 2);
    const text = (m: KafkaMessage | undefined, name: string) => m?.headers?.[name]?.toString();
    assert.equal(text(dead[0], 'event-id'), 'evt_storm');
    assert.equal(
      text(dead[0], 'deadletter-reason'),
      `header event-type is "${EventTypes.ThunderstormEvent}", but weather.lightning.v1 carries ${EventTypes.LightningEvent}`,
    );
    assert.equal(text(dead[0], 'deadletter-source-topic'), topic);
    assert.equal(text(dead[0], 'deadletter-source-offset'), '1');
    assert.equal(text(dead[0], 'deadletter-consumer-group'), consumer.groupId);
    assert.equal(dead[0]?.value?.toString(), 'ltg_x', 'the value is kept byte for byte');
    assert.equal(text(dead[1], 'event-id'), 'evt_bytes');
    assert.match(text(dead[1], 'deadletter-reason') ?? '', /^value is not a valid stormhook\.weather\.v1\.LightningEvent: /);
    assert.equal(text(dead[1], 'deadletter-source-offset'), '2');

    await waitFor(async () => (await committedOffsets(kafka, consumer!.groupId, topic)).get(0) === '4', 'offset 4 committed');
  });
});
