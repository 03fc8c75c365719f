import assert from 'node:assert/strict';
import type { Kafka } from 'kafkajs';
import { deleteTopics, ensureTopics } from './admin.js';
import { createConsumer, type ConsumerOptions, type EventConsumer } from './consumer.js';
import { EventTypes } from './event-types.js';
import { committedOffsets, deleteGroups, endOffsets, testKafka, testLogger, uniqueName, waitFor } from './int-support.js';
import { Outcomes } from './outcome.js';
import { createPublisher, type Publisher } from './publisher.js';
import type { ConsumedRecord } from './record.js';
import { TopicNames, topicSpec, type TopicName } from './topics.js';

const logger = testLogger();
const TOPIC: TopicName = TopicNames.WeatherLightning;

describe('consumer group rebalance (real broker)', () => {
  let kafka: Kafka;
  let publisher: Publisher;
  const prefix = uniqueName('kafka-rebalance');
  const groupId = uniqueName('kafka-rebalance-group');
  const quietGroupId = uniqueName('kafka-rebalance-quiet');
  const physical = `${prefix}.${TOPIC}`;
  const consumers: EventConsumer[] = [];

  before(async () => {
    kafka = testKafka(logger);
    await ensureTopics(kafka, [{ ...topicSpec(TOPIC), partitions: 4 }, topicSpec(TopicNames.DeadLetter)], { prefix });
    publisher = createPublisher(kafka, { logger, clientId: 'rebalance', prefix });
  });

  after(async () => {
    await Promise.all(consumers.map((c) => c.stop()));
    await publisher.disconnect();
    await deleteGroups(kafka, [groupId, quietGroupId]);
    await deleteTopics(kafka, [TOPIC, TopicNames.DeadLetter], { prefix });
  });

  /** Processed event ids by member; a little work per record keeps A busy while B joins. */
  function member(name: string, seen: Map<string, string[]>, extra: Partial<ConsumerOptions> = {}): EventConsumer {
    const consumer = createConsumer({
      kafka,
      groupId,
      topics: [TOPIC],
      publisher,
      logger,
      prefix,
      handler: async (record: ConsumedRecord) => {
        await new Promise((resolve) => setTimeout(resolve, 2));
        seen.set(record.headers.eventId, [...(seen.get(record.headers.eventId) ?? []), name]);
        return Outcomes.ok();
      },
      ...extra,
    });
    consumers.push(consumer);
    return consumer;
  }

  async function publish(from: number, to: number): Promise<string[]> {
    const events = [];
    for (let i = from; i < to; i++) {
      events.push({ key: `area-${i}`, value: Buffer.from(String(i)), eventType: EventTypes.LightningEvent });
    }
    return (await publisher.publish(TOPIC, events)).eventIds;
  }

  const partitionsOf = (c: EventConsumer) => c.assignment()[TOPIC] ?? [];

  it('shares partitions when a member joins, hands them over when it leaves, and loses no record', async () => {
    const seen = new Map<string, string[]>();
    const published: string[] = [];

    const a = member('A', seen);
    await a.start();
    await waitFor(() => partitionsOf(a).length === 4, 'A alone to own all 4 partitions');
    published.push(...(await publish(0, 80)));
    await waitFor(() => seen.size >= 20, 'A to be busy');

    const b = member('B', seen);
    await b.start();
    await waitFor(
      () => partitionsOf(a).length > 0 && partitionsOf(b).length > 0 && partitionsOf(a).length + partitionsOf(b).length === 4,
      'A and B to split the partitions',
    );
    const split = { a: partitionsOf(a), b: partitionsOf(b) };
    assert.deepEqual([...split.a, ...split.b].sort(), [0, 1, 2, 3]);

    published.push(...(await publish(80, 140)));
    await waitFor(() => published.every((id) => seen.has(id)), 'the first 140 records');
    const byB = [...seen.values()].filter((names) => names.includes('B')).length;
    assert.ok(byB > 0, 'B processed records from its partitions');

    await a.stop();
    assert.deepEqual(await a.done, { kind: 'stopped' });
    await waitFor(() => partitionsOf(b).length === 4, 'B to take over all partitions');
    published.push(...(await publish(140, 200)));
    await waitFor(() => published.every((id) => seen.has(id)), 'all 200 records');

    assert.equal(published.length, 200);
    assert.equal(new Set(published).size, 200);
    // At least once: duplicates are allowed around a rebalance, loss is not; records after A left are B's.
    for (const id of published.slice(140)) assert.ok(seen.get(id)?.includes('B'), `${id} handled by B`);

    // And B committed everything: the group is at the end of every partition.
    await waitFor(async () => {
      const [ends, committed] = await Promise.all([endOffsets(kafka, physical), committedOffsets(kafka, groupId, physical)]);
      return [...ends].every(([partition, end]) => end === '0' || committed.get(partition) === end);
    }, 'the group to commit to the end of every partition');
  });

  it('commits the finished work of revoked partitions at the rebalance, so the new owner re-reads almost nothing', async () => {
    const seen = new Map<string, string[]>();
    // No periodic commit during the test: only the first record, the revoke and the stop commit.
    const quiet = { groupId: quietGroupId, commit: { everyMs: 600_000, everyRecords: 1_000_000 } };
    const a = member('A', seen, quiet);
    await a.start();
    await waitFor(() => partitionsOf(a).length === 4, 'A alone to own all 4 partitions');
    const published = await publish(1_000, 1_300);
    await waitFor(() => seen.size >= 150, 'A to be half way');
    const b = member('B', seen, quiet);
    await b.start();
    await waitFor(() => published.every((id) => seen.has(id)), 'all 300 records');
    assert.ok(partitionsOf(b).length > 0, 'B took partitions over');
    const twice = [...seen.values()].filter((names) => names.length > 1).length;
    // Without the revoke commit B would re-read everything A handled on B's partitions (about 75).
    assert.ok(twice <= 12, `${twice} records handled twice: only those in flight at the rebalance`);
  });
});
