import type { Logger } from '@stormhook/logger';
import type { Clock } from '../ports/clock.js';
import type { MessageLog } from '../ports/message-log.js';
import type { MessageOutbox, QueuedMessage } from '../ports/message-outbox.js';
import type { MessageSender, MessageSendResult } from '../ports/message-sender.js';

export interface MessageOutboxWorkerOptions {
  instanceId: string;
  /** Messages being sent at once by this process. */
  concurrency: number;
  pollIntervalMs: number;
  /** Longest wait for a provider; a send past it counts as a transient failure. */
  sendTimeoutMs: number;
  /** First retry delay; it doubles per attempt up to {@link maxRetryDelayMs}. */
  retryBaseMs: number;
  maxRetryDelayMs: number;
  /** Attempts before the message is given up and logged as failed. */
  maxAttempts: number;
}

export interface MessageOutboxWorkerDeps {
  outbox: MessageOutbox;
  sender: MessageSender;
  log: MessageLog;
  clock: Clock;
  logger: Logger;
}

/** The delay before attempt `attempts + 1`: base · 2^(attempts-1), capped. */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(30, attempts - 1)));
}

/**
 * Sends the queued SMS and e-mail outside the Kafka consumer (issue 17 item 7): polls the outbox for
 * due messages, claims each attempt with a unique insert, sends with a timeout, and on a transient
 * failure schedules the next attempt with exponential backoff. A message stays in the outbox until it
 * is sent or given up, so a restart or a crash loses none (it is sent again: at least once; the SMS
 * gateway gets the message id as Idempotency-Key, SMTP as Message-ID). Logs never carry the recipient
 * or the text.
 */
export class MessageOutboxWorker {
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private stopped = true;
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: MessageOutboxWorkerDeps,
    private readonly options: MessageOutboxWorkerOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => void this.poll(), this.options.pollIntervalMs);
    this.timer.unref();
    void this.poll();
  }

  /** Stops polling and waits up to `graceMs` for sends in flight; unfinished ones are retried after their lease. */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.race([Promise.allSettled([...this.inFlight.values()]), new Promise((r) => setTimeout(r, graceMs).unref())]);
  }

  /** One round: claim and start what is due, up to the free concurrency. Exposed for tests. */
  async poll(): Promise<void> {
    if (this.polling || this.stopped) return;
    this.polling = true;
    try {
      const free = this.options.concurrency - this.inFlight.size;
      if (free <= 0) return;
      const due = await this.deps.outbox.due(this.deps.clock.now(), free + this.inFlight.size);
      for (const queued of due) {
        if (this.inFlight.size >= this.options.concurrency) break;
        const id = queued.message.messageId;
        if (this.inFlight.has(id)) continue;
        const work = this.attempt(queued)
          .catch((error: unknown) => this.deps.logger.warn({ messageId: id, err: error }, 'message attempt failed to record; retried at the next poll'))
          .finally(() => this.inFlight.delete(id));
        this.inFlight.set(id, work);
      }
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'message outbox poll failed; will retry');
    } finally {
      this.polling = false;
    }
  }

  private async attempt(queued: QueuedMessage): Promise<void> {
    const { outbox, clock, logger } = this.deps;
    const { messageId, channel } = queued.message;
    const attempt = queued.attempts + 1;
    const now = clock.now();
    // The lease outlives the send's timeout, so a live holder is never taken over.
    const claim = await outbox.claim(messageId, attempt, this.options.instanceId, now, new Date(now.getTime() + 2 * this.options.sendTimeoutMs));
    if (claim === 'taken') return;
    if (claim === 'expired') {
      // A holder died mid-attempt: that attempt counts as a failed one.
      await this.afterFailure(queued, attempt, 'the previous holder stopped during the attempt', false);
      return;
    }
    const log = { messageId, channel, template: queued.template, attempts: attempt, providerId: null, error: null } as const;
    await this.deps.log.save({ ...log, status: 'sending', updatedAt: now });
    const result = await this.sendWithTimeout(queued);
    if (result.ok) {
      await this.deps.log.save({ ...log, status: 'sent', providerId: result.providerId ?? null, updatedAt: clock.now() });
      await outbox.remove(messageId);
      logger.info({ messageId, channel, template: queued.template, attempt }, 'message sent');
      return;
    }
    await this.afterFailure(queued, attempt, result.reason, result.permanent);
  }

  private async afterFailure(queued: QueuedMessage, attempt: number, reason: string, permanent: boolean): Promise<void> {
    const { outbox, clock, logger } = this.deps;
    const { messageId, channel } = queued.message;
    if (permanent || attempt >= this.options.maxAttempts) {
      await this.deps.log.save({
        messageId,
        channel,
        template: queued.template,
        attempts: attempt,
        status: 'failed',
        providerId: null,
        error: reason,
        updatedAt: clock.now(),
      });
      await outbox.remove(messageId);
      logger.warn({ messageId, channel, attempt, reason, permanent }, 'message given up');
      return;
    }
    const delay = retryDelayMs(attempt, this.options.retryBaseMs, this.options.maxRetryDelayMs);
    await outbox.reschedule(messageId, attempt, new Date(clock.now().getTime() + delay));
    logger.warn({ messageId, channel, attempt, reason, retryInMs: delay }, 'message provider failed; retrying later');
  }

  private async sendWithTimeout(queued: QueuedMessage): Promise<MessageSendResult> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<MessageSendResult>((resolve) => {
      timer = setTimeout(
        () => resolve({ ok: false, permanent: false, reason: `provider did not answer within ${this.options.sendTimeoutMs} ms` }),
        this.options.sendTimeoutMs,
      );
    });
    try {
      return await Promise.race([
        this.deps.sender.send(queued.message).catch((error: unknown): MessageSendResult => ({ ok: false, permanent: false, reason: (error as Error).message })),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
