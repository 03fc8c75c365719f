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
    assert.deepEqual(publisher.sent.map((n) => n.notificationId), ['n1', 'n2', 'n3']);
  });

  it('releases its claims when the publish fails, so the retry sends them', async () => {
    const publisher = new RecordingPublisher();
    const ledger = new MemoryLedger();
    const dispatcher = new NotificationDispatcher(ledger, publisher, new ManualClock(0));
    publisher.failNext = true;
    await assert.rejects(dispatcher.dispatch([notification('n1')]), /broker unavailable/);
    assert.equal(await ledger.isPublished('n1'), false);
    assert.equal((await dispatcher.dispatch([notification('n1')])).length, 1);
    assert.equal(await ledger.isPublished('n1'), true);
  });
});
