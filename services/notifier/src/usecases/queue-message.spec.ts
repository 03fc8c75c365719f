import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { sealParams } from '@stormhook/kafka';
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

const keys = generateKeyPairSync('x25519');
const messageKey = keys.privateKey;

describe('QueueMessage', () => {
  it('renders the template in the recipient language and queues it once, due now', async () => {
    const outbox = new MemoryMessageOutbox();
    const queue = new QueueMessage({ outbox, log: new MemoryMessageLog(), clock: systemClock, messageKey });
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
    assert.deepEqual(await new QueueMessage({ outbox, log, clock: systemClock, messageKey }).execute(request()), { kind: 'duplicate' });
    assert.equal(outbox.entries.size, 0);
  });

  it('opens values sealed to its key (the one-time link), and rejects those sealed to another key or message', async () => {
    const outbox = new MemoryMessageOutbox();
    const queue = new QueueMessage({ outbox, log: new MemoryMessageLog(), clock: systemClock, messageKey });
    const params = { code: '735119', expiresAt: '2026-01-01T00:10:00Z' };
    assert.deepEqual(await queue.execute(request({ params: {}, sealedParams: sealParams(params, keys.publicKey, 'msg_1') })), { kind: 'queued' });
    assert.match(outbox.entries.get('msg_1')?.message.text ?? '', /aktivasyon kodunuz 735119/);
    const other = generateKeyPairSync('x25519').publicKey;
    const foreign = await queue.execute(request({ messageId: 'msg_2', params: {}, sealedParams: sealParams(params, other, 'msg_2') }));
    assert.equal(foreign.kind, 'rejected');
    const moved = await queue.execute(request({ messageId: 'msg_3', params: {}, sealedParams: sealParams(params, keys.publicKey, 'msg_1') }));
    assert.equal(moved.kind, 'rejected');
  });

  it('rejects requests that can never be sent', async () => {
    const queue = new QueueMessage({ outbox: new MemoryMessageOutbox(), log: new MemoryMessageLog(), clock: systemClock, messageKey });
    assert.equal((await queue.execute(request({ recipient: '05551112233' }))).kind, 'rejected');
    assert.equal((await queue.execute(request({ channel: 'MESSAGE_CHANNEL_UNSPECIFIED' }))).kind, 'rejected');
    assert.equal(
      (await queue.execute(request({ channel: 'MESSAGE_CHANNEL_EMAIL', recipient: 'a@b.co', template: 'MESSAGE_TEMPLATE_UNSPECIFIED' }))).kind,
      'rejected',
    );
    assert.equal((await queue.execute(request({ messageId: '' }))).kind, 'rejected');
  });
});
