/** What the notifier remembers of a message request: its outcome, never its text or recipient. */
export interface MessageLogEntry {
  messageId: string;
  channel: 'sms' | 'email';
  template: string;
  status: 'sending' | 'sent' | 'failed';
  attempts: number;
  providerId: string | null;
  error: string | null;
  updatedAt: Date;
}

/** De-duplicates message requests (at-least-once Kafka) by message id. */
export interface MessageLog {
  get(messageId: string): Promise<MessageLogEntry | null>;
  save(entry: MessageLogEntry): Promise<void>;
}
