import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@stormhook/logger';
import { classifyAttempt, nextRetryDelayMs } from '../domain/attempt-outcome.js';
import type { Delivery, DeliveryAttempt, DeliveryStatus, FailureReason } from '../domain/delivery.js';
import type { WebhookEndpoint } from '../domain/endpoint.js';
import type { Clock } from '../ports/clock.js';
import type { DeliveryStore, QueueEntry } from '../ports/delivery-store.js';
import type { NotifierEventPublisher } from '../ports/event-publisher.js';
import type { HttpSender, SendOutcome } from '../ports/http-sender.js';
import type { DeliveryMetrics } from '../metrics/delivery-metrics.js';
import { buildRequest } from './build-request.js';
import type { EndpointCache } from './endpoint-cache.js';
import type { EndpointHealth } from './endpoint-health.js';
import { deliveryFailedEvent } from './failure-event.js';

export interface DeliveryWorkerOptions {
  /** Lease owner name; unique per process (e.g. host name + pid + random). */
  instanceId: string;
  /** Attempts in flight at once on this instance. */
  concurrency: number;
  /** Attempts in flight at once per endpoint on this instance, so one slow receiver cannot take every slot. */
  perEndpointConcurrency: number;
  /** How long a claim holds a delivery; must exceed the largest attempt timeout. Another instance takes it over after. */
  leaseMs: number;
  /** Wait between two looks at the queue when there is no work. */
  pollIntervalMs: number;
  /** Period of the outbox sweep that publishes owed DeliveryFailed events. */
  outboxIntervalMs: number;
}

export const DEFAULT_WORKER_OPTIONS: Omit<DeliveryWorkerOptions, 'instanceId'> = {
  concurrency: 256,
  perEndpointConcurrency: 32,
  leaseMs: 60_000,
  pollIntervalMs: 250,
  outboxIntervalMs: 5_000,
};

/** Entries claimed per round (the loop claims again at once while work is due). */
export const MAX_CLAIM_BATCH = 50;

export interface DeliveryWorkerDeps {
  store: DeliveryStore;
  endpoints: EndpointCache;
  health: EndpointHealth;
  sender: HttpSender;
  publisher: NotifierEventPublisher;
  clock: Clock;
  logger: Logger;
  metrics?: DeliveryMetrics;
}

interface Decision {
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  failureReason: FailureReason | null;
  publishFailure: boolean;
}

/**
 * The delivery scheduler of one notifier instance. Work lives in the database (queue entries with a
 * due time and a lease), never in memory: any instance claims due entries, a crashed instance's leases
 * expire and its work is taken over, and a retry survives restarts. Fresh deliveries accepted on this
 * instance are handed over in memory, already leased, to skip a round trip through the queue.
 */
export class DeliveryWorker {
  private readonly options: DeliveryWorkerOptions;
  private running = false;
  private abandoned = false;
  private loopDone: Promise<void> = Promise.resolve();
  private readonly hardStop = new AbortController();
  private wakeUp: (() => void) | undefined;
  private active = 0;
  private readonly perEndpoint = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  private lastOutboxSweep = 0;

  constructor(
    private readonly deps: DeliveryWorkerDeps,
    options: Partial<DeliveryWorkerOptions> & { instanceId: string },
  ) {
    this.options = { ...DEFAULT_WORKER_OPTIONS, ...options };
  }

  get instanceId(): string {
    return this.options.instanceId;
  }

  get leaseMs(): number {
    return this.options.leaseMs;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loopDone = this.loop();
  }

  /**
   * Stops claiming, lets attempts in flight finish for up to `graceMs`, then abandons the rest without
   * recording them: their leases expire and another instance makes those attempts again (at least once).
   */
  async stop({ graceMs = 10_000 }: { graceMs?: number } = {}): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    await this.loopDone;
    const drained = Promise.allSettled([...this.inFlight]).then(() => true);
    const inTime = await Promise.race([drained, sleep(graceMs).then(() => false)]);
    if (!inTime) {
      this.abandoned = true;
      this.hardStop.abort(new Error('notifier stopping'));
      await Promise.allSettled([...this.inFlight]);
    }
  }

  /** Asks the loop to look at the queue now (new work was queued). */
  wake(): void {
    this.wakeUp?.();
  }

  /** Takes a slot for a fresh delivery of `endpointId`; false when this instance has none to give. */
  tryReserve(endpointId: string): boolean {
    if (!this.running || this.active >= this.options.concurrency) return false;
    if ((this.perEndpoint.get(endpointId) ?? 0) >= this.options.perEndpointConcurrency) return false;
    this.reserve(endpointId);
    return true;
  }

  /** Runs a delivery whose slot was reserved and whose queue entry is leased to this instance. */
  dispatchReserved(entry: QueueEntry, delivery: Delivery, endpoint: WebhookEndpoint): void {
    this.track(entry, delivery, endpoint);
  }

  /** Gives back a slot reserved with tryReserve that will not be used. */
  cancelReservation(endpointId: string): void {
    this.unreserve(endpointId);
  }

  /** Publishes DeliveryFailed for dead deliveries that still owe it; returns how many went out. */
  async publishOwedFailures(limit = 100): Promise<number> {
    const owed = await this.deps.store.pendingFailureEvents(limit);
    let sent = 0;
    for (const delivery of owed) if (await this.publishFailure(delivery)) sent++;
    return sent;
  }

  private reserve(endpointId: string): void {
    this.active++;
    this.perEndpoint.set(endpointId, (this.perEndpoint.get(endpointId) ?? 0) + 1);
  }

  private unreserve(endpointId: string): void {
    this.active--;
    const left = (this.perEndpoint.get(endpointId) ?? 1) - 1;
    if (left <= 0) this.perEndpoint.delete(endpointId);
    else this.perEndpoint.set(endpointId, left);
    this.wakeUp?.();
  }

  private track(entry: QueueEntry, delivery?: Delivery, endpoint?: WebhookEndpoint): void {
    const run = this.run(entry, delivery, endpoint).finally(() => {
      this.inFlight.delete(run);
      this.unreserve(entry.endpointId);
    });
    this.inFlight.add(run);
  }

  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    });
  }

  private async loop(): Promise<void> {
    while (this.running) {
      try {
        if (Date.now() - this.lastOutboxSweep >= this.options.outboxIntervalMs) {
          this.lastOutboxSweep = Date.now();
          await this.publishOwedFailures();
        }
        const claimed = await this.claimBatch();
        if (claimed === 0) await this.idle(this.options.pollIntervalMs);
      } catch (error) {
        this.deps.logger.error({ err: error }, 'delivery loop failed; retrying');
        await this.idle(this.options.pollIntervalMs);
      }
    }
  }

  /** Claims what this instance has room for, fairly across endpoints; returns how many it got. */
  private async claimBatch(): Promise<number> {
    // One claim is one multi-document update; FerretDB applies it document by document (about 4 ms
    // each) and stalls on very large ones, so a round claims at most MAX_CLAIM_BATCH entries.
    const free = Math.min(this.options.concurrency - this.active, MAX_CLAIM_BATCH);
    if (free <= 0) return 0;
    const now = this.deps.clock.now();
    const saturated = [...this.perEndpoint].filter(([, n]) => n >= this.options.perEndpointConcurrency).map(([id]) => id);
    const due = await this.deps.store.findDue({ now, limit: Math.min(free * 2, 500), excludeEndpoints: saturated });
    const chosen: QueueEntry[] = [];
    const planned = new Map<string, number>();
    for (const entry of due) {
      if (chosen.length >= free) break;
      const used = (this.perEndpoint.get(entry.endpointId) ?? 0) + (planned.get(entry.endpointId) ?? 0);
      if (used >= this.options.perEndpointConcurrency) continue;
      planned.set(entry.endpointId, (planned.get(entry.endpointId) ?? 0) + 1);
      chosen.push(entry);
    }
    if (chosen.length === 0) return 0;
    for (const entry of chosen) this.reserve(entry.endpointId);
    let claimed: QueueEntry[] = [];
    try {
      claimed = await this.deps.store.claim({
        ids: chosen.map((e) => e.deliveryId),
        owner: this.options.instanceId,
        now,
        leaseUntil: new Date(now.getTime() + this.options.leaseMs),
      });
    } finally {
      const got = new Set(claimed.map((e) => e.deliveryId));
      for (const entry of chosen) if (!got.has(entry.deliveryId)) this.unreserve(entry.endpointId);
    }
    for (const entry of claimed) this.track(entry);
    return claimed.length;
  }

  private async run(entry: QueueEntry, given?: Delivery, givenEndpoint?: WebhookEndpoint): Promise<void> {
    const { store, logger } = this.deps;
    try {
      const delivery = given ?? (await store.get(entry.deliveryId));
      if (!delivery || delivery.status !== 'pending') {
        await store.dequeue([entry.deliveryId]); // finished elsewhere, or a stale entry
        return;
      }
      const endpoint = givenEndpoint ?? (await this.deps.endpoints.get(entry.endpointId));
      if (!endpoint) return await this.kill(delivery, 'no-endpoint', 'the account has no webhook endpoint');
      if (endpoint.status === 'disabled') return await this.kill(delivery, 'endpoint-disabled', `endpoint disabled: ${endpoint.disabledReason ?? ''}`);
      const scheduledUsed = entry.attempt - entry.manualAttempts;
      if (!entry.single && entry.trigger === 'scheduled' && scheduledUsed > 1 + endpoint.deliveryPolicy.maxRetries) {
        // Attempts were claimed but never recorded (crashed instances): the budget is spent anyway.
        return await this.kill(delivery, 'retries-exhausted', 'attempts exhausted (some were lost in restarts)');
      }
      await this.attempt(entry, delivery, endpoint, scheduledUsed);
    } catch (error) {
      // Nothing recorded: the lease expires and the attempt is made again, here or elsewhere.
      if (!this.abandoned) logger.error({ err: error, deliveryId: entry.deliveryId }, 'delivery attempt failed unexpectedly');
    }
  }

  private async attempt(entry: QueueEntry, delivery: Delivery, endpoint: WebhookEndpoint, scheduledUsed: number): Promise<void> {
    const { clock, metrics, logger } = this.deps;
    const startedAt = clock.now();
    const { request, loggedUrl } = buildRequest(endpoint, delivery, startedAt);
    const labels = { endpoint_id: endpoint.id };
    metrics?.attempted.inc(labels);
    metrics?.inFlight.inc(labels);
    let outcome: SendOutcome;
    try {
      outcome = await this.deps.sender.send(request, this.hardStop.signal);
    } finally {
      metrics?.inFlight.dec(labels);
    }
    if (this.abandoned) return; // as if the process had died mid-attempt: nothing is recorded
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
    await this.deps.store.recordAttempt(delivery.id, {
      attempt,
      status: decision.status,
      nextAttemptAt: decision.nextAttemptAt,
      finishedAt: decision.status === 'pending' ? null : finishedAt,
      failureReason: decision.failureReason,
      publishFailure: decision.publishFailure,
      endpointId: endpoint.id,
    });
    if (decision.status === 'pending' && decision.nextAttemptAt) await this.deps.store.reschedule(delivery.id, decision.nextAttemptAt);
    else if (decision.publishFailure) await this.deps.store.parkForOutbox(delivery.id);
    else await this.deps.store.dequeue([delivery.id]);

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

  /** Marks a delivery dead without an attempt and owes its DeliveryFailed event. */
  private async kill(delivery: Delivery, reason: FailureReason, error: string): Promise<void> {
    const at = this.deps.clock.now();
    await this.deps.store.markDead(delivery.id, reason, error, at);
    await this.deps.store.parkForOutbox(delivery.id);
    this.deps.metrics?.dead.inc({ endpoint_id: delivery.endpointId ?? 'none' });
    await this.publishFailure({ ...delivery, status: 'dead', failureReason: reason, lastError: error, finishedAt: at, failureEventPending: true });
  }

  /** Publishes one owed DeliveryFailed; on failure the outbox sweep tries again later. */
  private async publishFailure(delivery: Delivery): Promise<boolean> {
    try {
      await this.deps.publisher.deliveryFailed(deliveryFailedEvent(delivery));
      await this.deps.store.markFailureEventPublished(delivery.id);
      return true;
    } catch (error) {
      this.deps.logger.warn({ err: error, deliveryId: delivery.id }, 'DeliveryFailed not published yet; the outbox sweep will retry');
      return false;
    }
  }
}
