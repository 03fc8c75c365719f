import type { Logger } from '@stormhook/logger';
import type { notificationV1 } from '@stormhook/proto';
import { renderMessage } from '../messaging/templates.js';
import type { Clock } from '../ports/clock.js';
import type { MessageLog } from '../ports/message-log.js';
import type { MessageSender } from '../ports/message-sender.js';

/** sent / duplicate: done. rejected: the request or the provider said no for good. retry: try again later. */
export type SendMessageResult = { kind: 'sent' } | { kind: 'duplicate' } | { kind: 'rejected'; reason: string } | { kind: 'retry'; reason: string };

export interface SendMessageDeps {
  sender: MessageSender;
  log: MessageLog;
  clock: Clock;
  logger: Logger;
}

const E164 = /^\+[1-9]\d{6,14}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Sends one requested SMS or e-mail at most once per message id as far as we can tell: a message
 * already sent is skipped; one that was being sent when a process died is sent again (at least once).
 * Logs never carry the recipient or the text (they hold codes and links).
 */
export class SendMessage {
  constructor(private readonly deps: SendMessageDeps) {}

  async execute(request: notificationV1.MessageRequested): Promise<SendMessageResult> {
    const { log, clock, logger } = this.deps;
    if (!request.messageId) return { kind: 'rejected', reason: 'message_id is required' };
    const channel = request.channel === 'MESSAGE_CHANNEL_SMS' ? 'sms' : request.channel === 'MESSAGE_CHANNEL_EMAIL' ? 'email' : undefined;
    if (!channel) return { kind: 'rejected', reason: 'channel is required' };
    if (channel === 'sms' ? !E164.test(request.recipient) : !EMAIL.test(request.recipient)) return { kind: 'rejected', reason: `recipient is not a valid ${channel} address` };
    const rendered = renderMessage(request);
    if (!rendered) return { kind: 'rejected', reason: 'no text: neither text_body nor a known template' };

    const known = await log.get(request.messageId);
    if (known && (known.status === 'sent' || known.status === 'failed')) return { kind: 'duplicate' };
    const attempts = (known?.attempts ?? 0) + 1;
    const base = { messageId: request.messageId, channel, template: request.template, attempts, providerId: null, error: null } as const;
    await log.save({ ...base, status: 'sending', updatedAt: clock.now() });

    const result = await this.deps.sender.send({ messageId: request.messageId, channel, recipient: request.recipient, subject: rendered.subject, text: rendered.body });
    if (result.ok) {
      await log.save({ ...base, status: 'sent', providerId: result.providerId ?? null, updatedAt: clock.now() });
      logger.info({ messageId: request.messageId, channel, template: request.template }, 'message sent');
      return { kind: 'sent' };
    }
    if (result.permanent) {
      await log.save({ ...base, status: 'failed', error: result.reason, updatedAt: clock.now() });
      logger.warn({ messageId: request.messageId, channel, reason: result.reason }, 'message refused by the provider');
      return { kind: 'rejected', reason: result.reason };
    }
    return { kind: 'retry', reason: result.reason };
  }
}
