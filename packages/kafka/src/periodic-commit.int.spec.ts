import assert from 'node:assert/strict';
import type { Kafka } from 'kafkajs';
import { deleteTopics, ensureTopics } from './admin.js';
import { createConsumer, type ConsumerOptions, type EventConsumer } from './consumer.js';
import { EventTypes } from './event-types.js';
import { committedOffsets, deleteGroups, testKafka, testLogger, uniqueName, waitFor } from './int-support.js';
import { Outcomes, type Outcome } from './outcome.js';
import { createPublisher, type Publisher } from './publisher.js';
import type { ConsumedRecord } from './record.js';
import { TopicNames, topicSpec, type TopicName } from './topics.js';

const logger = testLogger();
const TOPIC: TopicName = TopicNames.AlarmTriggered;

/** The same client, counting the offset-commit requests its consumers send to the broker. */
function countingCommits(kafka: Kafka): { kafka: Kafka; requests(): number } {
  let requests = 0;
  const wrapped = new Proxy(kafka, {
    get(target, property, receiver) {
      if (property !== 'consumer') return Reflect.get(target, property, receiver) as unknown;
      return (config: Parameters<Kafka['consumer']>[0]) => {
        const consumer = target.consumer(config);
        consumer.on(consumer.events.COMMIT_OFFSETS, () => requests++);
        return consumer;
      };
    },
  });
  return { kafka: wrapped, requests: () => requests };
}

describe('periodic offset commits (real broker)', () => {
  let kafka: Kafka;
  let publisher: Publisher;
  let prefix: string;
  const groups: string[] = [];
  const consumers: EventConsumer[] = [];

  beforeEach(async () => {
    kafka = testKafka(logger);
    prefix = uniqueName('kafka-commit');
    // One partition: offsets then say exactly which records are committed.
    await ensureTopics(kafka, [{ ...topicSpec(TOPIC), partitions: 1 }, topicSpec(TopicNames.DeadLetter)], { prefix });
    publisher = createPublisher(kafka, { logger, clientId: 'periodic-commit', prefix });
  });

  afterEach(async () => {
    await Promise.all(consumers.splice(0).map((c) => c.stop()));
    await publisher.disconnect();
    await deleteGroups(kafka, groups.splice(0));
    await deleteTopics(kafka, [TOPIC, TopicNames.DeadLetter], { prefix });
  });

  function consumer(groupId: string, handler: (r: ConsumedRecord) => Promise<Outcome>, extra: Partial<ConsumerOptions> = {}): EventConsumer {
    if (!groups.includes(groupId)) groups.push(groupId);
    const c = createConsumer({
      kafka,
      groupId,
      topics: [TOPIC],
      handler,
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
      const events = Array.from({ length: Math.min(500, count - from) }, (_, i) => ({
        key: `k${from + i}`,
        value: Buffer.from(String(from + i)),
        eventType: EventTypes.AlarmTriggered,
      }));
      await publisher.publish(TOPIC, events);
    }
  }

  const committed = async (groupId: string): Promise<number> => Number((await committedOffsets(kafka, groupId, `${prefix}.${TOPIC}`)).get(0) ?? '-1');

  it('commits every everyRecords records instead of per record, and the rest on stop', async () => {
    await publish(3000);
    const counting = countingCommits(kafka);
    const groupId = uniqueName('kafka-commit-count');
    let handled = 0;
    const c = consumer(
      groupId,
      async () => {
        handled++;
        return Outcomes.ok();
      },
      { kafka: counting.kafka, commit: { everyMs: 60_000, everyRecords: 1_000 } },
    );
    await c.start();
    await waitFor(() => handled === 3000, 'all 3,000 records handled');
    // The first finished record commits at once, then one commit per 1,000: offsets 1, 1001, 2001.
    await waitFor(async () => (await committed(groupId)) === 2001, 'the commit after 2,001 records');
    assert.ok(counting.requests() <= 4, `${counting.requests()} commit requests for 3,000 records`);
    await c.stop();
    assert.equal(await committed(groupId), 3000, 'stop commits the finished rest');
    assert.ok(counting.requests() <= 5, `${counting.requests()} commit requests in all`);
  });

  it('commits a partition that went quiet within everyMs, without a stop', async () => {
    await publish(50);
    const groupId = uniqueName('kafka-commit-quiet');
    let handled = 0;
    const c = consumer(
      groupId,
      async () => {
        handled++;
        return Outcomes.ok();
      },
      { commit: { everyMs: 300, everyRecords: 1_000_000 } },
    );
    await c.start();
    await waitFor(() => handled === 50, 'all 50 records handled');
    await waitFor(async () => (await committed(groupId)) === 50, 'the interval to commit the quiet partition', 5_000);
  });

  it('on stop commits only the unbroken finished prefix when records finish out of order; the next member resumes there', async () => {
    await publish(10);
    const groupId = uniqueName('kafka-commit-prefix');
    const handled = new Set<number>();
    const first = consumer(
      groupId,
      async (record) => {
        const n = Number(record.value.toString());
        // Record 2 keeps failing transiently while later records (other keys) finish around it.
        if (n === 2) return Outcomes.retry('not yet');
        handled.add(n);
        return Outcomes.ok();
      },
      { recordsInFlight: 4, maxAttempts: 10_000, commit: { everyMs: 60_000, everyRecords: 1_000 } },
    );
    await first.start();
    await waitFor(() => handled.size === 9, 'every record but 2 handled');
    await first.stop();
    assert.equal(await committed(groupId), 2, 'records 3..9 finished but lie after the unfinished 2');

    const again: number[] = [];
    const second = consumer(groupId, async (record) => {
      again.push(Number(record.value.toString()));
      return Outcomes.ok();
    });
    await second.start();
    await waitFor(() => again.length === 8, 'records 2..9 again');
    assert.deepEqual(again, [2, 3, 4, 5, 6, 7, 8, 9], 'nothing before the commit is re-read, nothing after it is lost');
    await waitFor(async () => (await committed(groupId)) === 10, 'the second member to commit to the end');
  });

  it('after a member dies without stopping, its successor re-reads only the uncommitted records: no loss', async () => {
    await publish(600);
    const groupId = uniqueName('kafka-commit-crash');
    const tuning = { sessionTimeout: 6_000, heartbeatInterval: 500, rebalanceTimeout: 8_000 };
    const byA: number[] = [];
    let release: () => void = () => {};
    const hang = new Promise<void>((resolve) => (release = resolve));
    const a = consumer(
      groupId,
      async (record) => {
        // At record 250 member A "dies": no more progress, no heartbeats, no stop, no commit.
        if (byA.length === 250) await hang;
        byA.push(Number(record.value.toString()));
        return Outcomes.ok();
      },
      { tuning, commit: { everyMs: 60_000, everyRecords: 100 } },
    );
    await a.start();
    await waitFor(() => byA.length === 250, 'A to handle 250 records');
    // Commits at the first record, then every 100: offset 201 is A's last.
    await waitFor(async () => (await committed(groupId)) === 201, 'A to have committed offset 201');

    const byB: number[] = [];
    const b = consumer(
      groupId,
      async (record) => {
        byB.push(Number(record.value.toString()));
        return Outcomes.ok();
      },
      { tuning },
    );
    await b.start();
    await waitFor(() => byB.length >= 399, "B to take over after A's session expires", 30_000);
    assert.equal(byB[0], 201, 'B starts at the last commit');
    assert.deepEqual(
      byB.slice(0, 399),
      Array.from({ length: 399 }, (_, i) => 201 + i),
      'B reads 201..599 in order',
    );
    const union = new Set([...byA, ...byB]);
    assert.equal(union.size, 600, 'every record handled at least once');
    const duplicates = byA.filter((n) => byB.includes(n)).length;
    assert.equal(duplicates, 49, 'only the finished but uncommitted records 201..249 are handled twice');

    const stoppingA = a.stop();
    release();
    await stoppingA;
    await waitFor(async () => (await committed(groupId)) === 600, "B to commit to the end; A's late commit does not move it back");
  });
});
