import type { Logger } from '@stormhook/logger';
import { classifyAttempt, nextRetryDelayMs } from '../domain/attempt-outcome.js';
import { classifyFailure, type ClassifiedFailure } from '../domain/failure-class.js';
import type { Delivery, DeliveryAttempt, DeliveryStatus, FailureReason } from '../domain/delivery.js';
import type { WebhookEndpoint } from '../domain/endpoint.js';
import type { DeliveryMetrics } from '../metrics/delivery-metrics.js';
import type { Clock } from '../ports/clock.js';
import { OUTBOX_DUE_AT, type DeliveryStore, type QueueEntry } from '../ports/delivery-store.js';
import type { NotifierEventPublisher } from '../ports/event-publisher.js';
import type { HttpSender, SendOutcome } from '../ports/http-sender.js';
import type { WebhookStatsSink } from '../ports/webhook-stats-sink.js';
import { buildRequest } from './build-request.js';
import type { EndpointCache } from './endpoint-cache.js';
import type { EndpointHealth } from './endpoint-health.js';
import { deliveryFailedEvent } from './failure-event.js';

export interface AttemptRunnerDeps {
  store: DeliveryStore;
  endpoints: EndpointCache;
  health: EndpointHealth;
  sender: HttpSender;
  publisher: NotifierEventPublisher;
  clock: Clock;
  logger: Logger;
  metrics?: DeliveryMetrics | undefined;
  /** The account's webhook health statistics (in memory). */
  stats?: WebhookStatsSink | undefined;
}

/** Where the attempt's claim lives: a queue entry (claimed with a lease document) or a hold of fresh deliveries. */
export type ClaimSource = 'queue' | 'hold';

/**
 * An attempt this instance holds the claim of. A held fresh delivery is in hand with its endpoint; a
 * queued one carries its delivery only when this instance queued it itself (its copy is current then).
 */
export type ClaimedAttempt =
  | { source: 'hold'; entry: QueueEntry; delivery: Delivery; endpoint: WebhookEndpoint; holdId: string }
  | { source: 'queue'; entry: QueueEntry; delivery?: Delivery };

/**
 * What the scheduler lends an attempt: `sent` is called once the request is over, saying whether it
 * timed out (the endpoint's slot may go to the next one while this attempt is recorded); `abandoned`
 * says the instance is stopping hard, and `abort` cancels the request then.
 */
export interface AttemptControl {
  abort: AbortSignal;
  abandoned: () => boolean;
  sent: (timedOut: boolean) => void;
}

interface Decision {
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  failureReason: FailureReason | null;
  publishFailure: boolean;
}

/**
 * What became of an attempt, for the scheduler: nothing left to do, a retry to remember, or nothing
 * (or not all) recorded because the instance stopped hard (`abandoned`) or a write failed (`failed`).
 * In the last two cases the claim expires and the attempt is made again, here or elsewhere.
 */
export type AttemptResult = { kind: 'settled' } | { kind: 'retry'; entry: QueueEntry; delivery: Delivery } | { kind: 'abandoned' } | { kind: 'failed' };

/**
 * Makes one claimed attempt and records it: send, judge the answer, append the attempt and the state
 * it leaves to the attempt log (batched), then move the work on. A queued delivery's entry is
 * rescheduled, parked for the outbox or removed; a held fresh delivery gets a queue entry only when
 * it needs a retry or owes DeliveryFailed, so the success path writes nothing but its log entry.
 * When to make which attempt is the scheduler's (DeliveryWorker); this is one attempt, start to end.
 */
export class AttemptRunner {
  constructor(private readonly deps: AttemptRunnerDeps) {}

  /** Runs a claimed attempt to its end. Never rejects: a failure is logged and reported as `failed`. */
  async run(claimed: ClaimedAttempt, control: AttemptControl): Promise<AttemptResult> {
    try {
      if (claimed.source === 'hold') return await this.attempt(claimed.entry, claimed.delivery, claimed.endpoint, 'hold', control);
      return await this.runQueued(claimed.entry, claimed.delivery, control);
    } catch (error) {
      if (!control.abandoned()) this.deps.logger.error({ err: error, deliveryId: claimed.entry.deliveryId }, 'delivery attempt failed unexpectedly');
      return { kind: 'failed' };
    }
  }

  /**
   * A queued attempt: sent unless its delivery can no longer be sent (finished elsewhere, a stale
   * entry, no endpoint, endpoint disabled, retry budget spent), which is settled without a request.
   */
  private async runQueued(entry: QueueEntry, known: Delivery | undefined, control: AttemptControl): Promise<AttemptResult> {
    const { store, endpoints } = this.deps;
    // Every change to a pending delivery is made by whoever claims its next attempt number, and this
    // instance holds that number: the copy it queued itself is current. Entries found by a read are
    // read in full.
    const delivery = known ?? (await store.get(entry.deliveryId));
    // A recovery sends a finished delivery once more; anything else finished is a stale entry.
    if (!delivery || (delivery.status !== 'pending' && !entry.recovery)) {
      await store.dequeue([{ deliveryId: entry.deliveryId, attempt: entry.attempt }]); // finished elsewhere, or a stale entry
      if (entry.recovery) this.recoveryDropped(entry, entry.recovery); // the delivery left the log (retention)
      return { kind: 'settled' };
    }
    let endpoint = await endpoints.get(entry.endpointId);
    // A recovery starts only on an enabled endpoint, so a disabled copy is likely this instance's cache
    // not having seen the enable yet (made on another instance a moment ago): ask the database.
    if (entry.recovery && endpoint?.status === 'disabled') endpoint = await endpoints.fresh(entry.endpointId);
    if (entry.recovery && (!endpoint || endpoint.status === 'disabled')) {
      // Not killed: the delivery is finished already and owes nothing new; the recovery counts it failed.
      await store.dequeue([{ deliveryId: entry.deliveryId, attempt: entry.attempt }]);
      this.recoveryDropped(entry, entry.recovery);
      return { kind: 'settled' };
    }
    if (!endpoint) return this.kill(entry, delivery, 'no-endpoint', 'the account has no webhook endpoint');
    if (endpoint.status === 'disabled') return this.kill(entry, delivery, 'endpoint-disabled', `endpoint disabled: ${endpoint.disabledReason ?? ''}`);
    const scheduledUsed = entry.attempt - entry.manualAttempts;
    if (!entry.single && entry.trigger === 'scheduled' && scheduledUsed > 1 + endpoint.deliveryPolicy.maxRetries) {
      // Attempts were claimed but never recorded (crashed instances): the budget is spent anyway.
      return this.kill(entry, delivery, 'retries-exhausted', 'attempts exhausted (some were lost in restarts)');
    }
    return this.attempt(entry, delivery, endpoint, 'queue', control);
  }

  private async attempt(
    entry: QueueEntry,
    delivery: Delivery,
    endpoint: WebhookEndpoint,
    source: ClaimSource,
    control: AttemptControl,
  ): Promise<AttemptResult> {
    const { clock, metrics, logger, store } = this.deps;
    const scheduledUsed = entry.attempt - entry.manualAttempts;
    const startedAt = clock.now();
    const { request, loggedUrl } = buildRequest(endpoint, delivery, startedAt, entry.recovery);
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
      outcome.kind === 'response'
        ? { kind: 'response', statusCode: outcome.statusCode, headers: outcome.headers, body: outcome.body }
        : { kind: 'error', message: outcome.message },
      delivery.ackId,
      finishedAt.getTime(),
    );
    if (outcome.kind === 'error' && outcome.blocked) {
      logger.warn(
        { deliveryId: delivery.id, endpointId: endpoint.id, accountId: delivery.accountId, url: loggedUrl, reason: outcome.message },
        'webhook callback refused by SSRF policy',
      );
    }
    const decided = this.decide(entry, endpoint, verdict, scheduledUsed, finishedAt);
    // A DeliveryFailed still owed from an earlier death (before a manual redelivery) stays owed.
    const decision = { ...decided, publishFailure: decided.publishFailure || (delivery.failureEventPending && decided.status !== 'pending') };
    const failure = verdict.succeeded
      ? undefined
      : classifyFailure(outcome.kind === 'response' ? { kind: 'response', statusCode: outcome.statusCode } : outcome);
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
      ...(failure ? { failureClass: failure.failureClass } : {}),
    };
    await store.recordAttempt(delivery.id, delivery.accountId, {
      attempt,
      outcome: {
        status: decision.status,
        finishedAt: decision.status === 'pending' ? null : finishedAt,
        failureReason: decision.failureReason,
        publishFailure: decision.publishFailure,
        endpointId: endpoint.id,
      },
    });
    this.recordStats(delivery, attempt, outcome, failure, decision, finishedAt);
    if (entry.recovery) this.deps.stats?.recovered(delivery.accountId, entry.recovery, attempt.succeeded);
    let result: AttemptResult = { kind: 'settled' };
    if (decision.status === 'pending' && decision.nextAttemptAt) {
      const retry: QueueEntry = {
        ...entry,
        dueAt: decision.nextAttemptAt,
        attempt: entry.attempt + 1,
        trigger: 'scheduled',
        leaseOwner: null,
        leaseUntil: null,
      };
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
        await this.publishFailure({
          ...delivery,
          status: 'dead',
          attemptCount: entry.attempt,
          finishedAt,
          lastResponseStatus: attempt.responseStatus,
          lastError: verdict.error,
          failureReason: decision.failureReason,
          endpointId: endpoint.id,
          failureEventPending: true,
        });
      }
    }
    return result;
  }

  /** A recovery's callback that could not be sent at all: a failure of the recovery, and no longer waiting. */
  private recoveryDropped(entry: QueueEntry, jobId: string): void {
    this.deps.stats?.recovered(entry.accountId, jobId, false);
    this.deps.stats?.closed(entry.accountId);
  }

  /** The attempt, and what it did to the delivery, in the account's webhook statistics. */
  private recordStats(
    delivery: Delivery,
    attempt: DeliveryAttempt,
    outcome: SendOutcome,
    failure: ClassifiedFailure | undefined,
    decision: Decision,
    finishedAt: Date,
  ): void {
    const stats = this.deps.stats;
    if (!stats) return;
    const at = finishedAt.getTime();
    stats.attempted(delivery.accountId, {
      at,
      durationMs: outcome.durationMs,
      succeeded: attempt.succeeded,
      failure,
      example: { notificationId: delivery.id, attemptNumber: attempt.attemptNumber, responseStatus: attempt.responseStatus, error: attempt.error ?? '' },
      // A test delivery carries no weather.
      weatherAgeMs: attempt.succeeded && !delivery.test ? at - delivery.occurredAt.getTime() : undefined,
    });
    if (decision.status !== 'pending') stats.closed(delivery.accountId);
    else if (decision.nextAttemptAt) stats.retryScheduled(delivery.accountId, decision.nextAttemptAt.getTime());
  }

  /** Marks a claimed queued delivery dead without an attempt and owes its DeliveryFailed event. */
  private async kill(entry: QueueEntry, delivery: Delivery, reason: FailureReason, error: string): Promise<AttemptResult> {
    const at = this.deps.clock.now();
    await this.deps.store.markDead(delivery.id, reason, error, at, entry.attempt);
    this.deps.stats?.closed(delivery.accountId);
    await this.deps.store.parkForOutbox(delivery.id, entry.attempt);
    this.deps.metrics?.dead.inc({ endpoint_id: delivery.endpointId ?? 'none' });
    await this.publishFailure({ ...delivery, status: 'dead', failureReason: reason, lastError: error, finishedAt: at, failureEventPending: true });
    return { kind: 'settled' };
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
