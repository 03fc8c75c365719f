/** A rendered message ready for a provider. Carries codes and links: never log `text` or `recipient`. */
export interface OutboundMessage {
  messageId: string;
  channel: 'sms' | 'email';
  recipient: string;
  subject: string;
  text: string;
}

/** permanent: the provider refused this message (bad address); retrying cannot help. */
export type MessageSendResult = { ok: true; providerId?: string } | { ok: false; permanent: boolean; reason: string };

/** One provider adapter (SMTP, SMS gateway, development outbox). */
export interface MessageSender {
  send(message: OutboundMessage): Promise<MessageSendResult>;
}
