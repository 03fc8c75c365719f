import type { KeyObject } from 'node:crypto';
import { openParams } from '@stormhook/kafka';
import type { notificationV1 } from '@stormhook/proto';
import { renderMessage } from '../messaging/templates.js';
import type { Clock } from '../ports/clock.js';
import type { MessageLog } from '../ports/message-log.js';
import type { MessageOutbox } from '../ports/message-outbox.js';

/** queued / duplicate: done for the consumer. rejected: the request can never be sent. */
export type QueueMessageResult = { kind: 'queued' } | { kind: 'duplicate' } | { kind: 'rejected'; reason: string };

export interface QueueMessageDeps {
  outbox: MessageOutbox;
  log: MessageLog;
  clock: Clock;
  /** The notifier's private message key: opens the values identity sealed to it (one-time links and codes). */
  messageKey: KeyObject;
}

const E164 = /^\+[1-9]\d{6,14}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Turns a requested SMS or e-mail into an outbox entry, at most once per message id. Nothing is sent
 * here: the Kafka handler must finish well inside the consumer's session, and a provider may take
 * minutes to answer (issue 17 item 7); the {@link MessageOutboxWorker} sends, with timeouts and retries.
 */
export class QueueMessage {
  constructor(private readonly deps: QueueMessageDeps) {}

  async execute(request: notificationV1.MessageRequested): Promise<QueueMessageResult> {
    if (!request.messageId) return { kind: 'rejected', reason: 'message_id is required' };
    const channel = request.channel === 'MESSAGE_CHANNEL_SMS' ? 'sms' : request.channel === 'MESSAGE_CHANNEL_EMAIL' ? 'email' : undefined;
    if (!channel) return { kind: 'rejected', reason: 'channel is required' };
    if (channel === 'sms' ? !E164.test(request.recipient) : !EMAIL.test(request.recipient))
      return { kind: 'rejected', reason: `recipient is not a valid ${channel} address` };
    // Sealed values are opened here, never before: the outbox keeps the rendered text encrypted at rest.
    let params = request.params;
    if (request.sealedParams.length > 0) {
      const opened = openParams(request.sealedParams, this.deps.messageKey, request.messageId);
      if (!opened.ok) return { kind: 'rejected', reason: opened.reason };
      params = { ...request.params, ...opened.params };
    }
    const rendered = renderMessage({ ...request, params });
    if (!rendered) return { kind: 'rejected', reason: 'no text: neither text_body nor a known template' };

    // A request replayed after its message was sent (and left the outbox) is known from the log.
    const known = await this.deps.log.get(request.messageId);
    if (known && (known.status === 'sent' || known.status === 'failed')) return { kind: 'duplicate' };
    const now = this.deps.clock.now();
    const fresh = await this.deps.outbox.enqueue({
      message: { messageId: request.messageId, channel, recipient: request.recipient, subject: rendered.subject, text: rendered.body },
      template: request.template,
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
    });
    return fresh ? { kind: 'queued' } : { kind: 'duplicate' };
  }
}
