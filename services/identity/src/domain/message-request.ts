/**
 * A message identity wants delivered (the notifier owns delivery). The params carry one-time links and
 * codes, so the publisher must never log a request whole.
 * WARNING: templates are part of the contract with the notifier; renaming one needs both sides.
 */
export type MessageTemplate = 'password-reset' | 'invitation' | 'phone-activation';

export interface MessageRequest {
  /** Unique per request, so that a republished request is delivered once. */
  messageId: string;
  channel: 'email' | 'sms';
  /** E-mail address or E.164 number. */
  to: string;
  template: MessageTemplate;
  /** language_REGION of the recipient, for the template's language. */
  locale: string;
  userId: string;
  accountId?: string;
  /** Values the template fills in: link, code, expiresAt (ISO), firstName. */
  params: Record<string, string>;
}
