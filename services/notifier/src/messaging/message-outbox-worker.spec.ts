import assert from 'node:assert/strict';
import { createLogger } from '@stormhook/logger';
import type { Clock } from '../ports/clock.js';
import type { MessageSender, MessageSendResult, OutboundMessage } from '../ports/message-sender.js';
import { MemoryMessageLog, MemoryMessageOutbox } from '../test-support/memory-message-outbox.js';
import { MessageOutboxWorker, retryDelayMs, type MessageOutboxWorkerOptions } from './message-outbox-worker.js';

const logger = createLogger({ service: 'test', level: 'silent' });

class TestClock implements Clock {
  at = Date.parse('2026-01-01T00:00:00Z');
  now(): Date {
    return new Date(this.at);
  }
}

const options: MessageOutboxWorkerOptions = {
  instanceId: 'w1',
  concurrency: 4,
  pollIntervalMs: 60_000,
  sendTimeoutMs: 50,
  retryBaseMs: 1_000,
  maxRetryDelayMs: 8_000,
  maxAttempts: 3,
};

function message(id: string): OutboundMessage {
  return { messageId: id, channel: 'email', recipient: 'a@b.co', subject: 's', text: 'code 123' };
}

async function setup(sender: MessageSender, over: Partial<MessageOutboxWorkerOptions> = {}) {
  const clock = new TestClock();
  const outbox = new MemoryMessageOutbox();
  const log = new MemoryMessageLog();
  const worker = new MessageOutboxWorker({ outbox, sender, log, clock, logger }, { ...options, ...over });
  const enqueue = (id: string) => outbox.enqueue({ message: message(id), template: 'T', attempts: 0, nextAttemptAt: clock.now(), createdAt: clock.now() });
  /** One poll round and every attempt it started. */
  const round = async (w = worker) => {
    (w as unknown as { stopped: boolean }).stopped = false;
    await w.poll();
    await Promise.allSettled([...(w as unknown as { inFlight: Map<string, Promise<void>> }).inFlight.values()]);
  };
  return { clock, outbox, log, worker, enqueue, round };
}

describe('MessageOutboxWorker', () => {
  it('sends a due message, logs it sent and removes it from the outbox', async () => {
    const sent: OutboundMessage[] = [];
    const { outbox, log, enqueue, round } = await setup({ send: async (m) => (sent.push(m), { ok: true, providerId: 'p-1' }) });
    await enqueue('m1');
    await round();
    assert.deepEqual(
      sent.map((m) => m.messageId),
      ['m1'],
    );
    assert.equal(outbox.entries.size, 0);
    assert.equal(log.entries.get('m1')?.status, 'sent');
    assert.equal(log.entries.get('m1')?.providerId, 'p-1');
  });

  it('gives up on a provider that never answers after the send timeout, and retries with backoff', async () => {
    const hanging: MessageSender = { send: () => new Promise<MessageSendResult>(() => undefined) };
    const { clock, outbox, log, enqueue, round } = await setup(hanging);
    await enqueue('m1');
    const started = Date.now();
    await round();
    assert.ok(Date.now() - started < 1_000, 'the attempt ended at the 50 ms timeout, not when the provider answered');
    assert.equal(outbox.entries.get('m1')?.attempts, 1);
    assert.equal(outbox.entries.get('m1')?.nextAttemptAt.getTime(), clock.at + 1_000);
    assert.equal(log.entries.get('m1')?.status, 'sending');
    await round(); // not due yet
    assert.equal(outbox.entries.get('m1')?.attempts, 1);
    clock.at += 1_000;
    await round();
    assert.equal(outbox.entries.get('m1')?.nextAttemptAt.getTime(), clock.at + 2_000, 'the delay doubled');
    clock.at += 2_000;
    await round();
    assert.equal(outbox.entries.has('m1'), false, 'given up after maxAttempts');
    assert.equal(log.entries.get('m1')?.status, 'failed');
    assert.match(log.entries.get('m1')?.error ?? '', /did not answer within 50 ms/);
  });

  it('gives up at once on a permanent refusal', async () => {
    const { outbox, log, enqueue, round } = await setup({ send: async () => ({ ok: false, permanent: true, reason: 'SMTP: 550 no such user' }) });
    await enqueue('m1');
    await round();
    assert.equal(outbox.entries.size, 0);
    assert.equal(log.entries.get('m1')?.status, 'failed');
    assert.equal(log.entries.get('m1')?.attempts, 1);
  });

  it("lets only one of two instances send an attempt, and counts a dead holder's attempt as made", async () => {
    let sends = 0;
    const { clock, outbox, log, enqueue, round } = await setup({ send: async () => (sends++, { ok: true }) });
    const other = new MessageOutboxWorker(
      { outbox, sender: { send: async () => (sends++, { ok: true }) }, log, clock, logger },
      { ...options, instanceId: 'w2' },
    );
    await enqueue('m1');
    await Promise.all([round(), round(other)]);
    assert.equal(sends, 1);

    // A holder that died: attempt 1 is claimed but never finished; after its lease the next attempt runs.
    await enqueue('m2');
    await outbox.claim('m2', 1, 'dead', clock.now(), new Date(clock.at + 100));
    await round();
    assert.equal(sends, 1, 'the lease is still live');
    clock.at += 100;
    await round();
    assert.equal(outbox.entries.get('m2')?.attempts, 1);
    clock.at += 1_000;
    await round();
    assert.equal(sends, 2);
    assert.equal(log.entries.get('m2')?.attempts, 2);
  });

  it('doubles the retry delay up to its cap', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5, 40].map((a) => retryDelayMs(a, 5_000, 600_000)),
      [5_000, 10_000, 20_000, 40_000, 80_000, 600_000],
    );
  });
});
