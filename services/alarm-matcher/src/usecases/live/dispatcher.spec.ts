import assert from 'node:assert/strict';
import type { Notification } from '../../payloads/notification.js';
import { ManualClock } from '../../test-support/manual-clock.js';
import { MemoryLedger, RecordingPublisher } from '../../test-support/memory-ports.js';
import { NotificationDispatcher } from './dispatcher.js';

function notification(id: string): Notification {
  return {
    notificationId: id,
    addressee: { registrationId: 'r', accountId: 'a', kind: 'POINT', recipientId: 'x' },
    eventKind: 'LIGHTNING',
    phase: 'START',
    eventId: 'e',
    stage: 'strike',
    occurredAtMs: 0,
    payload: { id },
  };
}

describe('NotificationDispatcher', () => {
  it('publishes each notification once, whatever the repeats', async () => {
    const publisher = new RecordingPublisher();
    const dispatcher = new NotificationDispatcher(new MemoryLedger(), publisher, new ManualClock(0));
    assert.equal((await dispatcher.dispatch([notification('n1'), notification('n1'), notification('n2')])).length, 2);
    assert.equal((await dispatcher.dispatch([notification('n1'), notification('n3')])).length, 1);
    assert.deepEqual(
      publisher.sent.map((n) => n.notificationId),
      ['n1', 'n2', 'n3'],
    );
  });

  it('releases its claims when the publish fails, so the retry sends them', async () => {
    const publisher = new RecordingPublisher();
    const ledger = new MemoryLedger();
    const dispatcher = new NotificationDispatcher(ledger, publisher, new ManualClock(0));
    publisher.failNext = true;
    await assert.rejects(dispatcher.dispatch([notification('n1')]), /broker unavailable/);
    assert.equal(await ledger.isPublished('n1'), false);
    assert.equal((await dispatcher.dispatch([notification('n1')])).length, 1);
    await dispatcher.drain();
    assert.equal(await ledger.isPublished('n1'), true);
  });

  it('claims and publishes the notifications of concurrent callers in one batch each', async () => {
    const publisher = new RecordingPublisher();
    const ledger = new MemoryLedger();
    const dispatcher = new NotificationDispatcher(ledger, publisher, new ManualClock(0), undefined, { maxItems: 100, maxDelayMs: 5, maxConcurrentFlushes: 1 });
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => dispatcher.dispatch([notification(`n${i}`), notification(`m${i}`)])));
    assert.deepEqual(
      results.map((sent) => sent.length),
      new Array<number>(30).fill(2),
    );
    assert.deepEqual(ledger.claimCalls, [60], 'one ledger round trip for the 30 callers');
    assert.deepEqual(publisher.calls, [60], 'one publish for the 30 callers');
    await dispatcher.drain();
    assert.equal(ledger.published.size, 1, 'one published mark for the whole batch');
    assert.equal(await ledger.isPublished('m29'), true);
  });

  it('bounds a batch by maxItems', async () => {
    const publisher = new RecordingPublisher();
    const ledger = new MemoryLedger();
    const dispatcher = new NotificationDispatcher(ledger, publisher, new ManualClock(0), undefined, { maxItems: 25, maxDelayMs: 5, maxConcurrentFlushes: 1 });
    await Promise.all(Array.from({ length: 60 }, (_, i) => dispatcher.dispatch([notification(`n${i}`)])));
    assert.deepEqual(ledger.claimCalls, [25, 25, 10]);
    assert.equal(publisher.sent.length, 60);
  });

  it('gives a notification brought by two concurrent callers to exactly one of them', async () => {
    const publisher = new RecordingPublisher();
    const dispatcher = new NotificationDispatcher(new MemoryLedger(), publisher, new ManualClock(0), undefined, {
      maxItems: 100,
      maxDelayMs: 5,
      maxConcurrentFlushes: 1,
    });
    const [a, b] = await Promise.all([
      dispatcher.dispatch([notification('n1'), notification('a')]),
      dispatcher.dispatch([notification('n1'), notification('b')]),
    ]);
    assert.deepEqual([a!.map((n) => n.notificationId), b!.map((n) => n.notificationId)], [['n1', 'a'], ['b']]);
    assert.deepEqual(publisher.sent.map((n) => n.notificationId).sort(), ['a', 'b', 'n1']);
  });

  it('fails every caller of a failed batch, and sends their claims on the retry even when the release did not reach the database', async () => {
    const publisher = new RecordingPublisher();
    const ledger = new MemoryLedger();
    const dispatcher = new NotificationDispatcher(ledger, publisher, new ManualClock(0), undefined, { maxItems: 100, maxDelayMs: 5, maxConcurrentFlushes: 1 });
    publisher.failNext = true;
    ledger.failRelease = true;
    const failed = await Promise.allSettled([dispatcher.dispatch([notification('n1')]), dispatcher.dispatch([notification('n2')])]);
    assert.deepEqual(
      failed.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    assert.ok(ledger.claims.has('n1') && ledger.claims.has('n2'), 'the claims are still in the ledger');
    const retried = await Promise.all([dispatcher.dispatch([notification('n1')]), dispatcher.dispatch([notification('n2')])]);
    assert.deepEqual(
      retried.map((sent) => sent.length),
      [1, 1],
    );
    assert.deepEqual(
      publisher.sent.map((n) => n.notificationId),
      ['n1', 'n2'],
    );
    assert.equal((await dispatcher.dispatch([notification('n1')])).length, 0, 'published once, then taken');
  });
});
