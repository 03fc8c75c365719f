import nodemailer, { type Transporter } from 'nodemailer';
import type { MessageSender, MessageSendResult, OutboundMessage } from '../ports/message-sender.js';

export interface SmtpOptions {
  /** smtp:// or smtps:// URL with credentials, e.g. smtps://user:pass@mail.example.com:465 */
  url: string;
  from: string;
}

/** E-mail through SMTP with nodemailer. 5xx SMTP replies are permanent; everything else may be retried. */
export class SmtpMailSender implements MessageSender {
  private readonly transport: Transporter;

  constructor(private readonly options: SmtpOptions) {
    this.transport = nodemailer.createTransport(options.url);
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
