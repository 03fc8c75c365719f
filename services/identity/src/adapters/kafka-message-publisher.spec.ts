import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { openParams, type EventToPublish, type TopicName } from '@stormhook/kafka';
import { notificationV1 } from '@stormhook/proto';
import { KafkaMessagePublisher, messageRequested } from './kafka-message-publisher.js';
import { TopicNames } from '@stormhook/kafka';

describe('message requests to the notifier', () => {
  const notifier = generateKeyPairSync('x25519');
  const at = new Date('2025-06-01T12:00:00Z');
  const request = {
    messageId: '3f1c2a9e-0000-4000-8000-000000000001',
    channel: 'sms' as const,
    to: '+905321234567',
    template: 'phone-activation' as const,
    locale: 'tr_TR',
    userId: 'u1',
    accountId: 'a1',
    params: { code: '123456', expiresAt: '2025-06-01T12:10:00.000Z' },
  };

  it('maps to stormhook.notification.v1.MessageRequested, with every template value sealed to the notifier', () => {
    const { sealedParams, ...wire } = messageRequested(request, at, notifier.publicKey);
    assert.deepEqual(openParams(sealedParams, notifier.privateKey, 'msg_3f1c2a9e-0000-4000-8000-000000000001'), { ok: true, params: request.params });
    assert.ok(!Buffer.from(sealedParams).toString('latin1').includes('123456'));
    assert.deepEqual(wire, {
      messageId: 'msg_3f1c2a9e-0000-4000-8000-000000000001',
      channel: 'MESSAGE_CHANNEL_SMS',
      recipient: '+905321234567',
      template: 'MESSAGE_TEMPLATE_PHONE_ACTIVATION',
      subject: '',
      textBody: '',
      locale: 'tr_TR',
      params: {},
      userId: 'u1',
      accountId: 'a1',
      requestedAtEpochMs: at.getTime(),
    });
    assert.equal(messageRequested({ ...request, channel: 'email', template: 'password-reset', accountId: undefined }, at, notifier.publicKey).accountId, '');
  });

  it('publishes on notification.message-requested.v1, keyed by recipient, as the catalogue event type', async () => {
    const sent: Array<{ topic: TopicName; events: readonly EventToPublish[] }> = [];
    const publisher = new KafkaMessagePublisher(
      { publish: async (topic, events) => (sent.push({ topic, events }), { eventIds: ['evt_1'] }) },
      { now: () => at },
      notifier.publicKey,
    );
    await publisher.publish(request);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]?.topic, TopicNames.MessageRequested);
    const event = sent[0]?.events[0];
    assert.equal(event?.key, '+905321234567');
    assert.equal(event?.eventType, 'stormhook.notification.v1.MessageRequested');
    const wire = notificationV1.MessageRequested.decode(event?.value ?? new Uint8Array());
    assert.equal(wire.params['code'], undefined);
    assert.ok(!Buffer.from(wire.sealedParams).toString('latin1').includes('123456'));
    const opened = openParams(wire.sealedParams, notifier.privateKey, wire.messageId);
    assert.equal(opened.ok && opened.params['code'], '123456');
  });
});
