import assert from 'node:assert/strict';
import type { KafkaMessage } from 'kafkajs';
import { createLogger } from '@stormhook/logger';
import { Outcomes, type Outcome } from './outcome.js';
import { processMessage, type ProcessorDeps, type RecordCoordinates } from './record-processor.js';
import type { ConsumedRecord } from './record.js';
import { TopicNames } from './topics.js';

const at: RecordCoordinates = { topic: TopicNames.AlarmTriggered, physicalTopic: 'p.alarm.triggered.v1', partition: 1 };

function message(headers: KafkaMessage['headers'] = { 'event-type': 't', 'event-id': 'evt_1' }): KafkaMessage {
  return { key: null, value: Buffer.from('v'), timestamp: '0', attributes: 0, offset: '7', headers } as KafkaMessage;
}

interface Harness {
  deps: ProcessorDeps;
  deadLetters: string[];
  calls: ConsumedRecord[];
  heartbeats: { count: number };
  stop: AbortController;
}

function harness(outcomes: Array<Outcome | Error>, overrides: Partial<ProcessorDeps> = {}): Harness {
  const deadLetters: string[] = [];
  const calls: ConsumedRecord[] = [];
  const stop = new AbortController();
  const deps: ProcessorDeps = {
    groupId: 'g',
    policy: { maxAttempts: 3, initialDelayMs: 5, maxDelayMs: 10 },
    logger: createLogger({ service: 'kafka-spec', level: 'silent' }),
    signal: stop.signal,
    heartbeatIntervalMs: 2,
    handler: async (record) => {
      calls.push(record);
      const next = outcomes.shift() ?? Outcomes.ok();
      if (next instanceof Error) throw next;
      return next;
    },
    deadLetter: async (_message, _at, reason) => {
      deadLetters.push(reason);
    },
    ...overrides,
  };
  return { deps, deadLetters, calls, heartbeats: { count: 0 }, stop };
}

function beat(h: Harness) {
  return async () => {
    h.heartbeats.count++;
  };
}

describe('processMessage', () => {
  it('hands the parsed record to the handler and reports done', async () => {
    const h = harness([Outcomes.ok()]);
    assert.deepEqual(await processMessage(h.deps, at, message(), beat(h)), { kind: 'done', via: 'ok' });
    assert.equal(h.calls.length, 1);
    assert.equal(h.calls[0]?.headers.eventId, 'evt_1');
    assert.deepEqual(h.deadLetters, []);
  });

  it('dead-letters on request, with the reason', async () => {
    const h = harness([Outcomes.deadLetter('bad payload')]);
    assert.deepEqual(await processMessage(h.deps, at, message(), beat(h)), { kind: 'done', via: 'dead-letter' });
    assert.deepEqual(h.deadLetters, ['bad payload']);
  });

  it('dead-letters an unparseable record without calling the handler', async () => {
    const h = harness([]);
    assert.deepEqual(await processMessage(h.deps, at, message({}), beat(h)), { kind: 'done', via: 'dead-letter' });
    assert.deepEqual(h.deadLetters, ['unparseable record: missing header event-type']);
    assert.equal(h.calls.length, 0);
  });

  it('retries a transient failure (returned or thrown) and heartbeats while waiting', async () => {
    const h = harness([Outcomes.retry('db down'), new Error('socket closed'), Outcomes.ok()]);
    assert.deepEqual(await processMessage(h.deps, at, message(), beat(h)), { kind: 'done', via: 'ok' });
    assert.equal(h.calls.length, 3);
    assert.ok(h.heartbeats.count >= 2);
  });

  it('gives up loudly after maxAttempts instead of skipping the record', async () => {
    const h = harness([Outcomes.retry('a'), Outcomes.retry('b'), Outcomes.retry('c'), Outcomes.ok()]);
    const result = await processMessage(h.deps, at, message(), beat(h));
    assert.equal(result.kind, 'fatal');
    if (result.kind === 'fatal') assert.match(result.error.message, /after 3 attempts: c/);
    assert.equal(h.calls.length, 3);
    assert.deepEqual(h.deadLetters, []);
  });

  it('abandons the record when the consumer stops during a backoff', async () => {
    const h = harness([Outcomes.retry('a'), Outcomes.ok()], { policy: { maxAttempts: 5, initialDelayMs: 10_000, maxDelayMs: 10_000 } });
    const pending = processMessage({ ...h.deps, heartbeatIntervalMs: 10_000 }, at, message(), beat(h));
    setTimeout(() => h.stop.abort(), 20);
    const started = Date.now();
    assert.deepEqual(await pending, { kind: 'abandoned' });
    assert.ok(Date.now() - started < 2_000);
    assert.equal(h.calls.length, 1);
  });

  it('stops when the dead letter cannot be written', async () => {
    const h = harness([Outcomes.deadLetter('bad')], {
      deadLetter: async () => {
        throw new Error('broker gone');
      },
    });
    const result = await processMessage(h.deps, at, message(), beat(h));
    assert.equal(result.kind, 'fatal');
    if (result.kind === 'fatal') assert.match(result.error.message, /could not dead-letter p\.alarm\.triggered\.v1\/1@7: broker gone/);
  });

  it('lets a heartbeat failure (lost partition) escape so kafkajs rejoins', async () => {
    const h = harness([Outcomes.retry('a')]);
    await assert.rejects(
      processMessage(h.deps, at, message(), async () => {
        throw new Error('rebalance in progress');
      }),
      /rebalance in progress/,
    );
  });
});
