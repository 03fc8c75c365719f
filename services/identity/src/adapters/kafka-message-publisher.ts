import type { KeyObject } from 'node:crypto';
import { publishOn, sealParams, TopicNames, type Publisher } from '@stormhook/kafka';
import { notificationV1 } from '@stormhook/proto';
import type { MessageRequest, MessageTemplate } from '../domain/message-request.js';
import type { Clock } from '../ports/clock.js';
import type { MessagePublisher } from '../ports/message-publisher.js';

const TEMPLATES: Readonly<Record<MessageTemplate, notificationV1.MessageTemplate>> = {
  'password-reset': 'MESSAGE_TEMPLATE_PASSWORD_RESET',
  invitation: 'MESSAGE_TEMPLATE_INVITATION',
  'phone-activation': 'MESSAGE_TEMPLATE_PHONE_ACTIVATION',
};

/**
 * The wire form of a message request (stormhook.notification.v1.MessageRequested). Every value of
 * identity's templates is sealed to the notifier: they hold reset and invitation links with their
 * one-time tokens and activation codes, and anyone who can read the topic must not be able to take
 * over the account they open (issue 23 item 1).
 */
export function messageRequested(request: MessageRequest, now: Date, notifierKey: KeyObject): notificationV1.MessageRequested {
  const messageId = request.messageId.startsWith('msg_') ? request.messageId : `msg_${request.messageId}`;
  return notificationV1.MessageRequested.create({
    messageId,
    channel: request.channel === 'sms' ? 'MESSAGE_CHANNEL_SMS' : 'MESSAGE_CHANNEL_EMAIL',
    recipient: request.to,
    template: TEMPLATES[request.template],
    locale: request.locale,
    params: {},
    sealedParams: sealParams(request.params, notifierKey, messageId),
    userId: request.userId,
    accountId: request.accountId ?? '',
    requestedAtEpochMs: now.getTime(),
  });
}

/**
 * Hands message requests to the notifier over Kafka. Resolves once every in-sync replica has the
 * record (the publisher is idempotent with acks -1), so a 202 to the caller means the message is
 * durable. Keyed by recipient, as the topic's contract says, so one person's messages stay in order.
 * Nothing of the request is logged here: it carries one-time links and codes.
 */
export class KafkaMessagePublisher implements MessagePublisher {
  constructor(
    private readonly publisher: Pick<Publisher, 'publish'>,
    private readonly clock: Clock,
    /** The notifier's public message key: identity can seal values to it, never open them. */
    private readonly notifierKey: KeyObject,
  ) {}

  async publish(request: MessageRequest): Promise<void> {
    await publishOn(this.publisher, TopicNames.MessageRequested, [{ key: request.to, message: messageRequested(request, this.clock.now(), this.notifierKey) }]);
  }
}
