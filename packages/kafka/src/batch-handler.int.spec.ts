import assert from 'node:assert/strict';
import type { Kafka } from 'kafkajs';
import { deleteTopics, ensureTopics } from './admin.js';
import { createConsumer, type ConsumerExit, type ConsumerOptions, type EventConsumer } from './consumer.js';
import { EventTypes } from './event-types.js';
import { committedOffsets, deleteGroups, endOffsets, testKafka, testLogger, uniqueName, waitFor } from './int-support.js';
import { Outcomes } from './outcome.js';
import { createPublisher, type Publisher } from './publisher.js';
import type { BatchHandler } from './batch-processor.js';
import { TopicNames, topicSpec, type TopicName } from './topics.js';

const logger = testLogger();
const TOPIC: TopicName = TopicNames.WeatherLightning;

describe('consumer with a batch handler (real broker)', () => {
  let kafka: Kafka;
  let publisher: Publisher;
  let prefix: string;
  const groups: string[] = [];
  const consumers: EventConsumer[] = [];

  beforeEach(async () => {
    kafka = testKafka(logger);
    prefix = uniqueName('kafka-batch');
    await ensureTopics(kafka, [{ ...topicSpec(TOPIC), partitions: 1 }, topicSpec(TopicNames.DeadLetter)], { prefix });
    publisher = createPublisher(kafka, { logger, clientId: 'batch-handler', prefix });
  });

  afterEach(async () => {
    await Promise.all(consumers.splice(0).map((c) => c.stop()));
    await publisher.disconnect();
    await deleteGroups(kafka, groups.splice(0));
    await deleteTopics(kafka, [TOPIC, TopicNames.DeadLetter], { prefix });
  });

  function consumer(batchHandler: BatchHandler, extra: Partial<ConsumerOptions> = {}): EventConsumer {
    const groupId = uniqueName('kafka-batch-group');
    groups.push(groupId);
    const c = createConsumer({
      kafka,
      groupId,
      topics: [TOPIC],
      batchHandler,
      publisher,
      logger,
      prefix,
      backoff: { initialDelayMs: 20, maxDelayMs: 50 },
      ...extra,
    });
    consumers.push(c);
    return c;
  }

  async function publish(count: number): Promise<void> {
    for (let from = 0; from < count; from += 500) {
      // Three keys only, like the strikes of one storm sharing an area key.
      const events = Array.from({ length: Math.min(500, count - from) }, (_, i) => ({
        key: `area-${(from + i) % 3}`,
        value: Buffer.from(String(from + i)),
        eventType: EventTypes.LightningEvent,
      }));
      await publisher.publish(TOPIC, events);
    }
  }

  const committed = async (c: EventConsumer): Promise<string | undefined> => (await committedOffsets(kafka, c.groupId, `${prefix}.${TOPIC}`)).get(0);

  it("hands a partition's records over together, in offset order, bounded, and commits them", async () => {
    await publish(1_200);
    const sizes: number[] = [];
    const values: number[] = [];
    const c = consumer(
      async (records) => {
        sizes.push(records.length);
        values.push(...records.map((r) => Number(r.value.toString())));
        return records.map(() => Outcomes.ok());
      },
      { maxBatchRecords: 400 },
    );
    await c.start();
    await waitFor(() => values.length >= 1_200, 'all 1,200 records');
    assert.deepEqual(
      values,
      Array.from({ length: 1_200 }, (_, i) => i),
      'each record once, in offset order',
    );
    assert.ok(Math.max(...sizes) > 100, `records came together (largest batch ${Math.max(...sizes)})`);
    assert.ok(Math.max(...sizes) <= 400, 'never more than maxBatchRecords at once');
    await waitFor(async () => (await committed(c)) === '1200', 'the group to commit to the end');
  });

  it('dead-letters and retries single records of a batch, and commits only what is finished', async () => {
    await publish(10);
    const handled: number[] = [];
    let askedAgain = false;
    const c = consumer(async (records) =>
      records.map((r) => {
        const n = Number(r.value.toString());
        handled.push(n);
        if (n === 3) return Outcomes.deadLetter('poison 3');
        if (n === 6 && !askedAgain) {
          askedAgain = true;
          return Outcomes.retry('not yet');
        }
        return Outcomes.ok();
      }),
    );
    await c.start();
    await waitFor(async () => (await committed(c)) === '10', 'offset 10 committed');
    assert.equal(handled.filter((n) => n === 6).length, 2, 'record 6 handed over again');
    assert.equal(handled.filter((n) => n !== 6).length, 9, 'the others once');
    assert.deepEqual(
      [...(await endOffsets(kafka, `${prefix}.${TopicNames.DeadLetter}`)).values()].reduce((a, b) => a + Number(b), 0),
      1,
    );
  });

  it('gives up on a record that keeps failing, after committing the records before it', async () => {
    await publish(8);
    let exit: ConsumerExit | undefined;
    const c = consumer(async (records) => records.map((r) => (r.value.toString() === '4' ? Outcomes.retry('database down') : Outcomes.ok())), {
      maxAttempts: 3,
      restartAfterMs: 0,
      commit: { everyMs: 60_000, everyRecords: 1_000 },
    });
    void c.done.then((e) => (exit = e));
    await c.start();
    await waitFor(() => exit !== undefined, 'the consumer to give up');
    assert.equal(exit?.kind, 'fatal');
    assert.equal(await committed(c), '4', 'records 0..3 committed, 4 and after not');
  });

  it('refuses handler and batchHandler together, or neither', () => {
    assert.throws(() => createConsumer({ kafka, groupId: 'x', topics: [TOPIC], publisher, logger, prefix }), /exactly one of handler and batchHandler/);
    assert.throws(
      () =>
        createConsumer({
          kafka,
          groupId: 'x',
          topics: [TOPIC],
          publisher,
          logger,
          prefix,
          handler: async () => Outcomes.ok(),
          batchHandler: async (r) => r.map(() => Outcomes.ok()),
        }),
      /exactly one of handler and batchHandler/,
    );
  });
});
