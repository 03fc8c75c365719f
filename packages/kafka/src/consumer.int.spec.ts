import assert from 'node:assert/strict';
import { Partitioners, type Kafka, type KafkaMessage } from 'kafkajs';
import { SpanKind } from '@opentelemetry/api';
import { initTelemetry, InMemorySpanExporter, SimpleSpanProcessor, trace } from '@stormhook/telemetry';
import { deleteTopics, ensureTopics } from './admin.js';
import { createConsumer, type ConsumerExit, type EventConsumer } from './consumer.js';
import { EventTypes } from './event-types.js';
import { committedOffsets, deleteGroups, endOffsets, readAll, testKafka, testLogger, uniqueName, waitFor, withAdmin } from './int-support.js';
import { Outcomes, type Outcome } from './outcome.js';
import { createPublisher, type Publisher } from './publisher.js';
import type { ConsumedRecord } from './record.js';
import { TopicNames, topicSpec, type TopicName, type TopicSpec } from './topics.js';

const logger = testLogger();

/** One isolated corner of the broker per test: its own prefix, topics, publisher and groups. */
interface Stack {
  prefix: string;
  publisher: Publisher;
  physical(name: TopicName): string;
  consumer(
    topics: TopicName[],
    handler: (r: ConsumedRecord) => Promise<Outcome>,
    extra?: {
      maxAttempts?: number;
      onFatal?: (e: Error) => void;
      restartAfterMs?: number;
      onRecovered?: () => void;
      recordsInFlight?: number;
      fromBeginning?: boolean;
    },
  ): EventConsumer;
}

describe('publisher and consumer (real broker)', () => {
  let kafka: Kafka;
  const cleanups: Array<() => Promise<void>> = [];

  before(() => {
    kafka = testKafka(logger);
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function stack(label: string, specs: TopicSpec[]): Promise<Stack> {
    const prefix = uniqueName(label);
    const all = [...specs, topicSpec(TopicNames.DeadLetter)];
    await ensureTopics(kafka, all, { prefix });
    const publisher = createPublisher(kafka, { logger, clientId: label, prefix });
    const groups: string[] = [];
    const consumers: EventConsumer[] = [];
    cleanups.push(async () => {
      await Promise.all(consumers.map((c) => c.stop()));
      await publisher.disconnect();
      await deleteGroups(kafka, groups);
      await deleteTopics(
        kafka,
        all.map((s) => s.name),
        { prefix },
      );
    });
    return {
      prefix,
      publisher,
      physical: (name) => `${prefix}.${name}`,
      consumer(topics, handler, extra = {}) {
        const groupId = uniqueName(`${label}-group`);
        groups.push(groupId);
        const consumer = createConsumer({
          kafka,
          groupId,
          topics,
          handler,
          publisher,
          logger,
          prefix,
          backoff: { initialDelayMs: 20, maxDelayMs: 50 },
          ...extra,
        });
        consumers.push(consumer);
        return consumer;
      },
    };
  }

  it('with recordsInFlight, overlaps records of different keys, keeps each key in order and commits everything', async () => {
    const s = await stack('kafka-window', [topicSpec(TopicNames.AlarmTriggered)]);
    const keys = ['k0', 'k1', 'k2', 'k3', 'k4', 'k5'];
    const events = Array.from({ length: 60 }, (_, i) => ({
      key: keys[i % keys.length]!,
      value: Buffer.from(String(Math.floor(i / keys.length))),
      eventType: EventTypes.AlarmTriggered,
    }));
    await s.publisher.publish(TopicNames.AlarmTriggered, events);
    const seenByKey = new Map<string, number[]>();
    let running = 0;
    let peak = 0;
    const consumer = s.consumer(
      [TopicNames.AlarmTriggered],
      async (record) => {
        peak = Math.max(peak, ++running);
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
        running--;
        seenByKey.set(record.key!, [...(seenByKey.get(record.key!) ?? []), Number(record.value.toString())]);
        return Outcomes.ok();
      },
      { recordsInFlight: 8 },
    );
    await consumer.start();
    await waitFor(() => [...seenByKey.values()].reduce((n, v) => n + v.length, 0) >= 60, 'all 60 records handled');
    for (const key of keys) assert.deepEqual(seenByKey.get(key), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], `order of ${key}`);
    assert.ok(peak > 1, `records overlapped (peak ${peak})`);
    const topic = s.physical(TopicNames.AlarmTriggered);
    await waitFor(async () => {
      const [ends, committed] = await Promise.all([endOffsets(kafka, topic), committedOffsets(kafka, consumer.groupId, topic)]);
      return [...ends].every(([partition, end]) => end === '0' || committed.get(partition) === end);
    }, 'every partition committed to its end');
    await consumer.stop();
  });

  it('from the end: skips what was published before start(), reads everything published once start() returned', async () => {
    const s = await stack('kafka-end', [topicSpec(TopicNames.AlarmTriggered)]);
    const keys = Array.from({ length: 12 }, (_, i) => `k${i}`);
    const batch = (label: string) => keys.map((key) => ({ key, value: Buffer.from(label), eventType: EventTypes.AlarmTriggered }));
    await s.publisher.publish(TopicNames.AlarmTriggered, batch('before'));
    const seen: string[] = [];
    const consumer = s.consumer(
      [TopicNames.AlarmTriggered],
      async (record) => {
        seen.push(record.value.toString());
        return Outcomes.ok();
      },
      { fromBeginning: false },
    );
    await consumer.start();
    // Published at once, before the member has necessarily joined or fetched: the end was pinned by start().
    await s.publisher.publish(TopicNames.AlarmTriggered, batch('after'));
    await waitFor(() => seen.length >= keys.length, 'the records published after start()');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual([...new Set(seen)], ['after']);
    assert.equal(seen.length, keys.length);
  });

  it('delivers events with key, value, event headers and ids intact, and commits after handling', async () => {
    const s = await stack('kafka-pc', [topicSpec(TopicNames.AlarmTriggered)]);
    const { eventIds } = await s.publisher.publish(TopicNames.AlarmTriggered, [
      { key: 'reg-1', value: Buffer.from('first'), eventType: EventTypes.AlarmTriggered, eventId: 'evt_given', headers: { 'x-tenant': 'acme' } },
      { key: null, value: new Uint8Array([0, 255, 7]), eventType: EventTypes.AlarmTriggered, schemaVersion: 2 },
    ]);
    assert.equal(eventIds[0], 'evt_given');
    assert.match(eventIds[1] ?? '', /^evt_[0-9A-Z]{26}$/);

    const seen: ConsumedRecord[] = [];
    const consumer = s.consumer([TopicNames.AlarmTriggered], async (record) => {
      seen.push(record);
      return Outcomes.ok();
    });
    await consumer.start();
    await waitFor(() => seen.length >= 2, 'both events consumed');
    await consumer.stop();
    assert.deepEqual(await consumer.done, { kind: 'stopped' });

    const first = seen.find((r) => r.headers.eventId === 'evt_given');
    const second = seen.find((r) => r.headers.eventId === eventIds[1]);
    assert.ok(first && second, 'both event ids arrive unchanged');
    assert.equal(first.topic, TopicNames.AlarmTriggered);
    assert.equal(first.key, 'reg-1');
    assert.equal(first.value.toString(), 'first');
    assert.equal(first.headers.eventType, EventTypes.AlarmTriggered);
    assert.equal(first.headers.schemaVersion, 1);
    assert.equal(first.headers.contentType, 'application/x-protobuf');
    assert.equal(first.headers.all['x-tenant'], 'acme');
    assert.equal(second.key, null);
    assert.deepEqual([...second.value], [0, 255, 7]);
    assert.equal(second.headers.schemaVersion, 2);
    assert.ok(Math.abs(first.timestamp.getTime() - Date.now()) < 60_000);

    // Every handled record is committed: the group's offsets reached the end of each partition.
    const topic = s.physical(TopicNames.AlarmTriggered);
    const [ends, committed] = await Promise.all([endOffsets(kafka, topic), committedOffsets(kafka, consumer.groupId, topic)]);
    for (const [partition, end] of ends) {
      if (end !== '0') assert.equal(committed.get(partition), end, `partition ${partition}`);
    }
  });

  it('refuses an event type that does not belong on the topic', async () => {
    const s = await stack('kafka-type', [topicSpec(TopicNames.AlarmTriggered)]);
    await assert.rejects(
      s.publisher.publish(TopicNames.AlarmTriggered, [{ key: null, value: Buffer.from('x'), eventType: EventTypes.UserChanged }]),
      /does not belong on topic alarm\.triggered\.v1/,
    );
  });

  it('dead-letters a poison record with reason and source coordinates, and the partition moves on', async () => {
    // One partition, so "after the poison record" is well defined.
    const s = await stack('kafka-poison', [{ ...topicSpec(TopicNames.FeedLightning), partitions: 1 }]);
    const topic = s.physical(TopicNames.FeedLightning);
    const strike = (value: string, eventId?: string) => ({
      key: 'station-1',
      value: Buffer.from(value),
      eventType: EventTypes.LightningStrike,
      ...(eventId ? { eventId } : {}),
    });
    await s.publisher.publish(TopicNames.FeedLightning, [strike('ok-0'), strike('poison', 'evt_poison')]);
    // A record from a foreign client without our headers: unparseable.
    const raw = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await raw.connect();
    await raw.send({ topic, messages: [{ key: 'station-1', value: 'no headers at all' }] });
    await raw.disconnect();
    await s.publisher.publish(TopicNames.FeedLightning, [strike('ok-3'), strike('ok-4')]);

    const handled: string[] = [];
    const consumer = s.consumer([TopicNames.FeedLightning], async (record) => {
      handled.push(record.value.toString());
      return record.value.toString() === 'poison' ? Outcomes.deadLetter('strike outside the served area') : Outcomes.ok();
    });
    await consumer.start();
    await waitFor(() => handled.includes('ok-4'), 'records after the poison ones');
    assert.deepEqual(handled, ['ok-0', 'poison', 'ok-3', 'ok-4']);

    const dead = await readAll(kafka, s.physical(TopicNames.DeadLetter), 2);
    const text = (m: KafkaMessage, name: string) => m.headers?.[name]?.toString();
    const [poison, unparseable] = dead;
    assert.ok(poison && unparseable);
    assert.equal(poison.value?.toString(), 'poison');
    assert.equal(poison.key?.toString(), 'station-1');
    assert.equal(text(poison, 'event-id'), 'evt_poison');
    assert.equal(text(poison, 'event-type'), EventTypes.LightningStrike);
    assert.equal(text(poison, 'deadletter-reason'), 'strike outside the served area');
    assert.equal(text(poison, 'deadletter-source-topic'), topic);
    assert.equal(text(poison, 'deadletter-source-partition'), '0');
    assert.equal(text(poison, 'deadletter-source-offset'), '1');
    assert.equal(text(poison, 'deadletter-consumer-group'), consumer.groupId);
    assert.equal(unparseable.value?.toString(), 'no headers at all');
    assert.equal(text(unparseable, 'deadletter-reason'), 'unparseable record: missing header event-type');
    assert.equal(text(unparseable, 'deadletter-source-offset'), '2');

    await waitFor(async () => (await committedOffsets(kafka, consumer.groupId, topic)).get(0) === '5', 'offset 5 committed');
  });

  it('stops loudly after a transient failure outlasts maxAttempts, leaving the record uncommitted', async () => {
    const s = await stack('kafka-fatal', [{ ...topicSpec(TopicNames.UserChanged), partitions: 1 }]);
    await s.publisher.publish(TopicNames.UserChanged, [{ key: 'usr_1', value: Buffer.from('u'), eventType: EventTypes.UserChanged }]);
    let attempts = 0;
    const fatalSeen: Error[] = [];
    const consumer = s.consumer(
      [TopicNames.UserChanged],
      async () => {
        attempts++;
        return Outcomes.retry('database unavailable');
      },
      { maxAttempts: 3, onFatal: (e) => fatalSeen.push(e), restartAfterMs: 0 },
    );
    await consumer.start();
    const exit: ConsumerExit = await withTimeout(consumer.done, 10_000);
    assert.equal(exit.kind, 'fatal');
    if (exit.kind === 'fatal') assert.match(exit.error.message, /after 3 attempts: database unavailable/);
    assert.equal(attempts, 3);
    assert.equal(fatalSeen.length, 1);
    const committed = await committedOffsets(kafka, consumer.groupId, s.physical(TopicNames.UserChanged));
    assert.equal(committed.get(0), '-1');
    const dead = await endOffsets(kafka, s.physical(TopicNames.DeadLetter));
    assert.ok(
      [...dead.values()].every((end) => end === '0'),
      'a transient failure is never dead-lettered',
    );
  });

  it('after an outage outlasting the retries, rejoins by itself and processes the failed record: nothing lost', async () => {
    const s = await stack('kafka-recover', [{ ...topicSpec(TopicNames.UserChanged), partitions: 1 }]);
    await s.publisher.publish(TopicNames.UserChanged, [{ key: 'usr_1', value: Buffer.from('u'), eventType: EventTypes.UserChanged }]);
    let databaseUp = false;
    let processed = 0;
    const fatalSeen: Error[] = [];
    let recovered = 0;
    const consumer = s.consumer(
      [TopicNames.UserChanged],
      async () => {
        if (!databaseUp) return Outcomes.retry('database unavailable');
        processed++;
        return Outcomes.ok();
      },
      { maxAttempts: 2, onFatal: (e) => fatalSeen.push(e), restartAfterMs: 300, onRecovered: () => recovered++ },
    );
    await consumer.start();
    await waitFor(() => fatalSeen.length >= 1, 'the consumer to give up on the record');
    databaseUp = true;
    await waitFor(() => processed === 1, 'the record to be processed after the restart', 20_000);
    await waitFor(async () => (await committedOffsets(kafka, consumer.groupId, s.physical(TopicNames.UserChanged))).get(0) === '1', 'offset 1 committed');
    assert.ok(recovered >= 1, 'onRecovered was called');
    const dead = await endOffsets(kafka, s.physical(TopicNames.DeadLetter));
    assert.ok(
      [...dead.values()].every((end) => end === '0'),
      'nothing was dead-lettered',
    );
  });

  it('stops gracefully: the record in flight finishes and is committed before the member leaves', async () => {
    const s = await stack('kafka-stop', [{ ...topicSpec(TopicNames.DeliveryFailed), partitions: 1 }]);
    await s.publisher.publish(TopicNames.DeliveryFailed, [
      { key: 'dlv_1', value: Buffer.from('1'), eventType: EventTypes.DeliveryFailed },
      { key: 'dlv_2', value: Buffer.from('2'), eventType: EventTypes.DeliveryFailed },
    ]);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const started: string[] = [];
    const finished: string[] = [];
    const consumer = s.consumer([TopicNames.DeliveryFailed], async (record) => {
      started.push(record.value.toString());
      await gate;
      finished.push(record.value.toString());
      return Outcomes.ok();
    });
    await consumer.start();
    await waitFor(() => started.length === 1, 'the first record to be in flight');

    let stopped = false;
    const stopping = consumer.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(stopped, false, 'stop waits for the handler in flight');
    release();
    await stopping;

    assert.deepEqual(finished, ['1'], 'the second record is not started once stop was asked');
    const committed = await committedOffsets(kafka, consumer.groupId, s.physical(TopicNames.DeliveryFailed));
    assert.equal(committed.get(0), '1', 'the finished record is committed, the next one is not');
    const group = await withAdmin(kafka, (admin) => admin.describeGroups([consumer.groupId]));
    assert.deepEqual(group.groups[0]?.members, [], 'the member left the group');
  });

  it('continues the producer trace in the consumer span and the handler', async () => {
    const exporter = new InMemorySpanExporter();
    const telemetry = initTelemetry({ serviceName: 'kafka-int', spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    cleanups.push(() => telemetry.shutdown());
    const s = await stack('kafka-trace', [topicSpec(TopicNames.MessageRequested)]);

    const root = await telemetry.tracer.startActiveSpan('POST /v1/users', async (span) => {
      await s.publisher.publish(TopicNames.MessageRequested, [{ key: 'usr_1', value: Buffer.from('sms'), eventType: EventTypes.MessageRequested }]);
      span.end();
      return span.spanContext();
    });

    let handlerSpan: { traceId: string; spanId: string } | undefined;
    const consumer = s.consumer([TopicNames.MessageRequested], async () => {
      const active = trace.getActiveSpan()?.spanContext();
      handlerSpan = active && { traceId: active.traceId, spanId: active.spanId };
      return Outcomes.ok();
    });
    await consumer.start();
    await waitFor(() => handlerSpan !== undefined, 'the handler to run');
    await waitFor(() => exporter.getFinishedSpans().some((x) => x.kind === SpanKind.CONSUMER), 'the consumer span to end');

    const spans = exporter.getFinishedSpans();
    const producer = spans.find((x) => x.kind === SpanKind.PRODUCER);
    const consumerSpan = spans.find((x) => x.kind === SpanKind.CONSUMER);
    assert.ok(producer && consumerSpan);
    assert.equal(producer.spanContext().traceId, root.traceId);
    assert.equal(producer.parentSpanContext?.spanId, root.spanId);
    assert.equal(consumerSpan.spanContext().traceId, root.traceId);
    assert.equal(consumerSpan.parentSpanContext?.spanId, producer.spanContext().spanId);
    assert.equal(consumerSpan.attributes['messaging.destination.name'], s.physical(TopicNames.MessageRequested));
    assert.deepEqual(handlerSpan, { traceId: root.traceId, spanId: consumerSpan.spanContext().spanId });
  });
});

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no result within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
