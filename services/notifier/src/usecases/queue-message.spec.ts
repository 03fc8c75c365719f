import assert from 'node:assert/strict';
import { notificationV1 } from '@stormhook/proto';
import { systemClock } from '../ports/clock.js';
import { MemoryMessageLog, MemoryMessageOutbox } from '../test-support/memory-message-outbox.js';
import { QueueMessage } from './queue-message.js';

const request = (over: Partial<notificationV1.MessageRequested> = {}) =>
  notificationV1.MessageRequested.create({
    messageId: 'msg_1',
    channel: 'MESSAGE_CHANNEL_SMS',
    recipient: '+905551112233',
    template: 'MESSAGE_TEMPLATE_PHONE_ACTIVATION',
    locale: 'tr_TR',
    params: { code: '482913', expiresAt: '2026-01-01T00:10:00Z' },
    ...over,
  });

describe('QueueMessage', () => {
  it('renders the template in the recipient language and queues it once, due now', async () => {
    const outbox = new MemoryMessageOutbox();
    const queue = new QueueMessage({ outbox, log: new MemoryMessageLog(), clock: systemClock });
    const before = Date.now();
    assert.deepEqual(await queue.execute(request()), { kind: 'queued' });
    assert.deepEqual(await queue.execute(request()), { kind: 'duplicate' });
    assert.equal(outbox.entries.size, 1);
    const queued = outbox.entries.get('msg_1');
    assert.match(queued?.message.text ?? '', /aktivasyon kodunuz 482913/);
    assert.equal(queued?.message.recipient, '+905551112233');
    assert.equal(queued?.attempts, 0);
    assert.ok((queued?.nextAttemptAt.getTime() ?? 0) >= before && (queued?.nextAttemptAt.getTime() ?? Infinity) <= Date.now());
  });

  it('treats a request whose message was already sent as a duplicate', async () => {
    const outbox = new MemoryMessageOutbox();
    const log = new MemoryMessageLog();
    await log.save({ messageId: 'msg_1', channel: 'sms', template: 'x', status: 'sent', attempts: 1, providerId: null, error: null, updatedAt: new Date() });
    assert.deepEqual(await new QueueMessage({ outbox, log, clock: systemClock }).execute(request()), { kind: 'duplicate' });
    assert.equal(outbox.entries.size, 0);
  });

  it('rejects requests that can never be sent', async () => {
    const queue = new QueueMessage({ outbox: new MemoryMessageOutbox(), log: new MemoryMessageLog(), clock: systemClock });
    assert.equal((await queue.execute(request({ recipient: '05551112233' }))).kind, 'rejected');
    assert.equal((await queue.execute(request({ channel: 'MESSAGE_CHANNEL_UNSPECIFIED' }))).kind, 'rejected');
    assert.equal(
      (await queue.execute(request({ channel: 'MESSAGE_CHANNEL_EMAIL', recipient: 'a@b.co', template: 'MESSAGE_TEMPLATE_UNSPECIFIED' }))).kind,
      'rejected',
    );
    assert.equal((await queue.execute(request({ messageId: '' }))).kind, 'rejected');
  });
});
