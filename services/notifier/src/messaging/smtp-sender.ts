import nodemailer, { type Transporter } from 'nodemailer';
import type { MessageSender, MessageSendResult, OutboundMessage } from '../ports/message-sender.js';

export interface SmtpOptions {
  /** smtp:// or smtps:// URL with credentials, e.g. smtps://user:pass@mail.example.com:465 */
  url: string;
  from: string;
  /** Connect, greeting and idle-socket timeout; nodemailer's defaults are 2 min, 30 s and 10 min. */
  timeoutMs?: number;
}

/** E-mail through SMTP with nodemailer. 5xx SMTP replies are permanent; everything else may be retried. */
export class SmtpMailSender implements MessageSender {
  private readonly transport: Transporter;

  constructor(private readonly options: SmtpOptions) {
    const timeout = options.timeoutMs ?? 8_000;
    this.transport = nodemailer.createTransport({
      url: options.url,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      dnsTimeout: timeout,
    });
  }

  async send(message: OutboundMessage): Promise<MessageSendResult> {
    try {
      const info = await this.transport.sendMail({
        from: this.options.from,
        to: message.recipient,
        subject: message.subject,
        text: message.text,
        messageId: `<${message.messageId}@stormhook>`,
      });
      return { ok: true, providerId: String(info.messageId) };
    } catch (error) {
      const code = (error as { responseCode?: number }).responseCode;
      return { ok: false, permanent: code !== undefined && code >= 500 && code < 600, reason: `SMTP: ${(error as Error).message}` };
    }
  }

  close(): void {
    this.transport.close();
  }
}
