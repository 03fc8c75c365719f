import type { Logger } from '@stormhook/logger';
import type { MessageSender } from '../ports/message-sender.js';
import { ChannelRouter } from './channel-router.js';
import { defaultDevOutboxDir } from './dev-outbox-location.js';
import { DevOutboxSender } from './dev-outbox-sender.js';
import { HttpSmsSender } from './http-sms-sender.js';
import { SmtpMailSender } from './smtp-sender.js';

/** The settings the senders are made from: the notifier's config carries them (SMTP_*, SMS_*, NOTIFIER_*). */
export interface MessageSenderSettings {
  readonly SMTP_URL?: string | undefined;
  readonly SMTP_FROM: string;
  readonly SMS_GATEWAY_URL?: string | undefined;
  readonly SMS_GATEWAY_TOKEN?: string | undefined;
  readonly SMS_SENDER: string;
  readonly NOTIFIER_DEV_OUTBOX_DIR?: string | undefined;
  readonly NOTIFIER_MESSAGE_SEND_TIMEOUT_MS: number;
}

export interface ConfiguredSenders {
  sender: MessageSender;
  /** The development outbox directory when a channel uses it; undefined when both have providers. */
  outboxDir: string | undefined;
  close(): void;
}

/**
 * One adapter per channel from the configuration: SMTP for e-mail when SMTP_URL is set, the HTTP SMS
 * gateway when SMS_GATEWAY_URL is set, and the development outbox for any channel without a provider,
 * with a warning, because that file holds activation codes and reset links in clear.
 */
export function createMessageSender(config: MessageSenderSettings, logger: Logger): ConfiguredSenders {
  const outboxDir = !config.SMTP_URL || !config.SMS_GATEWAY_URL ? (config.NOTIFIER_DEV_OUTBOX_DIR ?? defaultDevOutboxDir()) : undefined;
  const outbox = outboxDir
    ? new DevOutboxSender(outboxDir, ({ file, channel, messageId }) =>
        // The path is in the message text because the terminal of `npm start` shows only that.
        logger.info({ file, channel, messageId }, `${channel === 'sms' ? 'SMS' : 'e-mail'} written to the development outbox: ${file}`),
      )
    : undefined;
  const smtp = config.SMTP_URL
    ? new SmtpMailSender({ url: config.SMTP_URL, from: config.SMTP_FROM, timeoutMs: config.NOTIFIER_MESSAGE_SEND_TIMEOUT_MS })
    : undefined;
  const sms =
    config.SMS_GATEWAY_URL && config.SMS_GATEWAY_TOKEN
      ? new HttpSmsSender({
          url: config.SMS_GATEWAY_URL,
          token: config.SMS_GATEWAY_TOKEN,
          sender: config.SMS_SENDER,
          timeoutMs: config.NOTIFIER_MESSAGE_SEND_TIMEOUT_MS,
        })
      : undefined;
  const email = smtp ?? outbox;
  const text = sms ?? outbox;
  if (!email || !text) throw new Error('no message sender for a channel'); // unreachable: the outbox covers both
  if (outbox) {
    const channels = [!smtp ? 'email (SMTP_URL unset)' : undefined, !sms ? 'sms (SMS_GATEWAY_URL unset)' : undefined].filter(Boolean);
    logger.warn(
      { file: outbox.file, channels },
      'messages are written to the DEVELOPMENT outbox file, codes in clear; production must configure SMTP_URL and SMS_GATEWAY_URL',
    );
  }
  return { sender: new ChannelRouter({ email, sms: text }), outboxDir, close: () => smtp?.close() };
}
