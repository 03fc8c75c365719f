import assert from 'node:assert/strict';
import type { Kafka } from 'kafkajs';
import { deleteTopics, ensureTopics } from './admin.js';
import { EventTypes } from './event-types.js';
import { endOffsets, testKafka, testLogger, uniqueName, waitFor } from './int-support.js';
import { createPublisher } from './publisher.js';
import { TopicNames, topicSpec, type TopicName } from './topics.js';

const logger = testLogger();
const TOPIC: TopicName = TopicNames.AlarmTriggered;
const OTHER: TopicName = TopicNames.DeliveryFailed;

/** The same client, counting the Produce requests its producers send. */
function countingProduceRequests(kafka: Kafka): { kafka: Kafka; requests(): number } {
  let requests = 0;
  const wrapped = new Proxy(kafka, {
    get(target, property, receiver) {
      if (property !== 'producer') return Reflect.get(target, property, receiver) as unknown;
      return (config: Parameters<Kafka['producer']>[0]) => {
        const producer = target.producer(config);
        producer.on(producer.events.REQUEST, ({ payload }) => {
          if (payload.apiName === 'Produce') requests++;
        });
        return producer;
      };
    },
  });
  return { kafka: wrapped, requests: () => requests };
}

describe('publisher batching (real broker)', () => {
  let kafka: Kafka;
  const prefix = uniqueName('kafka-pub');

  before(async () => {
    kafka = testKafka(logger);
    await ensureTopics(
      kafka,
      [
        { ...topicSpec(TOPIC), partitions: 1 },
        { ...topicSpec(OTHER), partitions: 1 },
      ],
      { prefix },
    );
  });

  after(async () => {
    await deleteTopics(kafka, [TOPIC, OTHER], { prefix });
  });

  it('sends concurrent publish calls together, across topics, in call order, each acknowledged', async () => {
    const counting = countingProduceRequests(kafka);
    const publisher = createPublisher(counting.kafka, { logger, clientId: 'pub-batch', prefix });
    await publisher.connect();
    const calls = Array.from({ length: 300 }, (_, i) =>
      i % 3 === 2
        ? publisher.publish(OTHER, [{ key: `k${i}`, value: Buffer.from(String(i)), eventType: EventTypes.DeliveryFailed }])
        : publisher.publish(TOPIC, [
            { key: `k${i}`, value: Buffer.from(`${i}a`), eventType: EventTypes.AlarmTriggered },
            { key: `k${i}`, value: Buffer.from(`${i}b`), eventType: EventTypes.AlarmTriggered },
          ]),
    );
    const results = await Promise.all(calls);
    assert.ok(
      results.every((r) => r.eventIds.length > 0),
      'every call answered with its event ids',
    );
    assert.ok(counting.requests() <= 30, `${counting.requests()} produce requests for 300 calls`);
    assert.deepEqual([...(await endOffsets(kafka, `${prefix}.${TOPIC}`)).values()], ['400']);
    assert.deepEqual([...(await endOffsets(kafka, `${prefix}.${OTHER}`)).values()], ['100']);

    // The partition holds the calls in the order they were made, each call's events together.
    const values: string[] = [];
    const reader = kafka.consumer({ groupId: uniqueName('kafka-pub-reader') });
    await reader.connect();
    await reader.subscribe({ topics: [`${prefix}.${TOPIC}`], fromBeginning: true });
    await reader.run({
      eachMessage: async ({ message }) => {
        values.push(message.value?.toString() ?? '');
      },
    });
    await waitFor(() => values.length === 400, 'all 400 records read back');
    await reader.disconnect();
    const expected = Array.from({ length: 300 }, (_, i) => i)
      .filter((i) => i % 3 !== 2)
      .flatMap((i) => [`${i}a`, `${i}b`]);
    assert.deepEqual(values, expected);
    await publisher.disconnect();
  });
});
