import type { OutboundMessage } from './message-sender.js';

/** A rendered message waiting to be sent, with its retry state. */
export interface QueuedMessage {
  message: OutboundMessage;
  template: string;
  /** Attempts made or taken so far; the next claim is attempt `attempts + 1`. */
  attempts: number;
  nextAttemptAt: Date;
  createdAt: Date;
}

export type ClaimResult = 'claimed' | 'taken' | 'expired';

/**
 * The durable queue of SMS and e-mail (issue 17 item 7): the Kafka handler only writes here, a worker
 * sends. Claims are unique inserts of `<messageId>#<attempt>`, so two instances never send one attempt.
 */
export interface MessageOutbox {
  /** False when the message id is already queued. */
  enqueue(entry: QueuedMessage): Promise<boolean>;
  /** Up to `limit` messages due at `now`. */
  due(now: Date, limit: number): Promise<QueuedMessage[]>;
  /**
   * Takes attempt `attempt` of a message until `until`. `taken`: another instance holds it;
   * `expired`: a holder's lease ran out, so that attempt counts as made.
   */
  claim(messageId: string, attempt: number, holder: string, now: Date, until: Date): Promise<ClaimResult>;
  /** Schedules the next attempt after `attempts` attempts. */
  reschedule(messageId: string, attempts: number, nextAttemptAt: Date): Promise<void>;
  remove(messageId: string): Promise<void>;
}
