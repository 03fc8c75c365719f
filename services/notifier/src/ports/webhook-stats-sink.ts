import type { RecordedAttempt } from '../domain/webhook-stats.js';

/** What the delivery path tells the webhook statistics (delivery/webhook-stats-recorder.ts): in memory, never a wait. */
export interface WebhookStatsSink {
  /** A delivery was accepted or reopened: it waits until it finishes. */
  opened(accountId: string): void;
  /** A delivery finished: succeeded, or dead. */
  closed(accountId: string): void;
  attempted(accountId: string, attempt: RecordedAttempt): void;
  retryScheduled(accountId: string, dueAt: number): void;
  /** A recovery job's attempt ended. */
  recovered(accountId: string, jobId: string, succeeded: boolean): void;
}
