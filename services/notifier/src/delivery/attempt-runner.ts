import type { Logger } from '@stormhook/logger';
import { classifyAttempt, nextRetryDelayMs } from '../domain/attempt-outcome.js';
import type { Delivery, DeliveryAttempt, DeliveryStatus, FailureReason } from '../domain/delivery.js';
import type { WebhookEndpoint } from '../domain/endpoint.js';
import type { DeliveryMetrics } from '../metrics/delivery-metrics.js';
import type { Clock } from '../ports/clock.js';
import { OUTBOX_DUE_AT, type DeliveryStore, type QueueEntry } from '../ports/delivery-store.js';
import type { NotifierEventPublisher } from '../ports/event-publisher.js';
import type { HttpSender, SendOutcome } from '../ports/http-sender.js';
import { buildRequest } from './build-request.js';
import type { EndpointHealth } from './endpoint-health.js';
import { deliveryFailedEvent } from './failure-event.js';

export interface AttemptRunnerDeps {
  store: DeliveryStore;
  health: EndpointHealth;
  sender: HttpSender;
  publisher: NotifierEventPublisher;
  clock: Clock;
  logger: Logger;
  metrics?: DeliveryMetrics | undefined;
}

/** Where the attempt's claim lives: a queue entry (claimed with a lease document) or a hold of fresh deliveries. */
export type ClaimSource = 'queue' | 'hold';

interface Decision {
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  failureReason: FailureReason | null;
  publishFailure: boolean;
}

/** What became of an attempt, for the scheduler: a retry to remember, or nothing left to do. */
export type AttemptResult = { kind: 'settled' } | { kind: 'retry'; entry: QueueEntry; delivery: Delivery } | { kind: 'abandoned' };

/**
 * Makes one claimed attempt and records it: send, judge the answer, append the attempt and the state
 * it leaves to the attempt log (batched), then move the work on. A queued delivery's entry is
 * rescheduled, parked for the outbox or removed; a held fresh delivery gets a queue entry only when
 * it needs a retry or owes DeliveryFailed, so the success path writes nothing but its log entry.
 */
export class AttemptRunner {
  constructor(private readonly deps: AttemptRunnerDeps) {}

  /**
   * `control.sent` is called once the request is over, saying whether it timed out (the endpoint's
   * slot may go to the next one while this attempt is recorded); `control.abandoned` says the
   * instance is stopping hard.
   */
  async attempt(entry: QueueEntry, delivery: Delivery, endpoint: WebhookEndpoint, source: ClaimSource, control: { abort: AbortSignal; abandoned: () => boolean; sent: (timedOut: boolean) => void }): Promise<AttemptResult> {
    const { clock, metrics, logger, store } = this.deps;
    const scheduledUsed = entry.attempt - entry.manualAttempts;
    const startedAt = clock.now();
    const { request, loggedUrl } = buildRequest(endpoint, delivery, startedAt);
    const labels = { endpoint_id: endpoint.id };
    metrics?.attempted.inc(labels);
    metrics?.inFlight.inc(labels);
    let outcome: SendOutcome;
    let timedOut = false;
    try {
      outcome = await this.deps.sender.send(request, control.abort);
      timedOut = outcome.kind === 'error' && outcome.timedOut;
    } finally {
      metrics?.inFlight.dec(labels);
      control.sent(timedOut);
    }
    if (control.abandoned()) return { kind: 'abandoned' }; // as if the process had died mid-attempt: nothing is recorded
    metrics?.attemptDuration.observe(labels, outcome.durationMs / 1000);
    const finishedAt = clock.now();
    const verdict = classifyAttempt(
      outcome.kind === 'response' ? { kind: 'response', statusCode: outcome.statusCode, headers: outcome.headers, body: outcome.body } : { kind: 'error', message: outcome.message },
      delivery.ackId,
      finishedAt.getTime(),
    );
    if (outcome.kind === 'error' && outcome.blocked) {
      logger.warn({ deliveryId: delivery.id, endpointId: endpoint.id, accountId: delivery.accountId, url: loggedUrl, reason: outcome.message }, 'webhook callback refused by SSRF policy');
    }
    const decided = this.decide(entry, endpoint, verdict, scheduledUsed, finishedAt);
    // A DeliveryFailed still owed from an earlier death (before a manual redelivery) stays owed.
    const decision = { ...decided, publishFailure: decided.publishFailure || (delivery.failureEventPending && decided.status !== 'pending') };
    const attempt: DeliveryAttempt = {
      attemptNumber: entry.attempt,
      trigger: entry.trigger,
      url: loggedUrl,
      startedAt,
      durationMs: outcome.durationMs,
      responseStatus: outcome.kind === 'response' ? outcome.statusCode : null,
      responseBody: outcome.kind === 'response' ? outcome.body : '',
      responseBodyTruncated: outcome.kind === 'response' && outcome.bodyTruncated,
      succeeded: verdict.succeeded,
      error: verdict.error,
      nextAttemptAt: decision.nextAttemptAt,
    };
    await store.recordAttempt(delivery.id, delivery.accountId, {
      attempt,
      outcome: { status: decision.status, finishedAt: decision.status === 'pending' ? null : finishedAt, failureReason: decision.failureReason, publishFailure: decision.publishFailure, endpointId: endpoint.id },
    });
    let result: AttemptResult = { kind: 'settled' };
    if (decision.status === 'pending' && decision.nextAttemptAt) {
      const retry: QueueEntry = { ...entry, dueAt: decision.nextAttemptAt, attempt: entry.attempt + 1, trigger: 'scheduled', leaseOwner: null, leaseUntil: null };
      if (source === 'queue') await store.reschedule(delivery.id, entry.attempt, decision.nextAttemptAt);
      else await store.enqueue(retry);
      result = { kind: 'retry', entry: retry, delivery: { ...delivery, attemptCount: entry.attempt, nextAttemptAt: decision.nextAttemptAt } };
    } else if (decision.publishFailure) {
      if (source === 'queue') await store.parkForOutbox(delivery.id, entry.attempt);
      else await store.enqueue({ ...entry, outbox: true, dueAt: OUTBOX_DUE_AT, leaseOwner: null, leaseUntil: null });
    } else if (source === 'queue') {
      await store.dequeue([{ deliveryId: delivery.id, attempt: entry.attempt }]);
    }

    if (verdict.succeeded) {
      metrics?.succeeded.inc(labels);
      metrics?.deliveryLatency.observe(labels, Math.max(0, finishedAt.getTime() - delivery.triggeredAt.getTime()) / 1000);
      await this.deps.health.onSuccess(endpoint);
    } else {
      metrics?.failed.inc(labels);
      await this.deps.health.onFailure(endpoint, verdict.gone);
    }
    if (decision.status === 'dead') {
      metrics?.dead.inc(labels);
      logger.warn({ deliveryId: delivery.id, endpointId: endpoint.id, attempts: entry.attempt, error: verdict.error }, 'webhook delivery is dead');
      if (decision.publishFailure) {
        await this.publishFailure({ ...delivery, status: 'dead', attemptCount: entry.attempt, finishedAt, lastResponseStatus: attempt.responseStatus, lastError: verdict.error, failureReason: decision.failureReason, endpointId: endpoint.id, failureEventPending: true });
      }
    }
    return result;
  }

  /** Marks a claimed queued delivery dead without an attempt and owes its DeliveryFailed event. */
  async kill(entry: QueueEntry, delivery: Delivery, reason: FailureReason, error: string): Promise<void> {
    const at = this.deps.clock.now();
    await this.deps.store.markDead(delivery.id, reason, error, at, entry.attempt);
    await this.deps.store.parkForOutbox(delivery.id, entry.attempt);
    this.deps.metrics?.dead.inc({ endpoint_id: delivery.endpointId ?? 'none' });
    await this.publishFailure({ ...delivery, status: 'dead', failureReason: reason, lastError: error, finishedAt: at, failureEventPending: true });
  }

  /** Publishes one owed DeliveryFailed; on failure the outbox sweep tries again later. */
  async publishFailure(delivery: Delivery): Promise<boolean> {
    try {
      await this.deps.publisher.deliveryFailed(deliveryFailedEvent(delivery));
      await this.deps.store.markFailureEventPublished(delivery.id);
      return true;
    } catch (error) {
      this.deps.logger.warn({ err: error, deliveryId: delivery.id }, 'DeliveryFailed not published yet; the outbox sweep will retry');
      return false;
    }
  }

  private decide(entry: QueueEntry, endpoint: WebhookEndpoint, verdict: ReturnType<typeof classifyAttempt>, scheduledUsed: number, now: Date): Decision {
    if (verdict.succeeded) return { status: 'succeeded', nextAttemptAt: null, failureReason: null, publishFailure: false };
    if (verdict.gone) return { status: 'dead', nextAttemptAt: null, failureReason: 'endpoint-gone', publishFailure: !entry.single };
    // A manual redelivery of a finished delivery is one try: its failure was seen by the person who asked.
    if (entry.single) return { status: 'dead', nextAttemptAt: null, failureReason: 'retries-exhausted', publishFailure: false };
    const policy = endpoint.deliveryPolicy;
    if (scheduledUsed < 1 + policy.maxRetries) {
      const delay = nextRetryDelayMs(policy.retryDelaySeconds, verdict.retryAfterMs);
      return { status: 'pending', nextAttemptAt: new Date(now.getTime() + delay), failureReason: null, publishFailure: false };
    }
    return { status: 'dead', nextAttemptAt: null, failureReason: 'retries-exhausted', publishFailure: true };
  }
}
