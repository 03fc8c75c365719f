import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@stormhook/logger';
import type { Delivery } from '../domain/delivery.js';
import type { WebhookEndpoint } from '../domain/endpoint.js';
import type { Clock } from '../ports/clock.js';
import type { DeliveryIntake } from '../ports/delivery-intake.js';
import { queueEntry, type DeliveryStore, type QueueEntry } from '../ports/delivery-store.js';
import type { NotifierEventPublisher } from '../ports/event-publisher.js';
import type { HttpSender } from '../ports/http-sender.js';
import type { DeliveryMetrics } from '../metrics/delivery-metrics.js';
import { AttemptRunner, type AttemptResult, type ClaimSource } from './attempt-runner.js';
import type { EndpointCache } from './endpoint-cache.js';
import type { EndpointHealth } from './endpoint-health.js';
import { recoverHold } from './hold-recovery.js';
import { HoldTracker } from './hold-tracker.js';
import { WorkSchedule } from './work-schedule.js';

export interface DeliveryWorkerOptions {
  /** Lease owner name; unique per process (e.g. host name + pid + random). */
  instanceId: string;
  /** Attempts in flight at once on this instance. */
  concurrency: number;
  /** Attempts in flight at once per endpoint on this instance, so one slow receiver cannot take every slot. */
  perEndpointConcurrency: number;
  /**
   * Attempts in flight at once to an endpoint whose last request timed out. A dead endpoint is probed,
   * not flooded: each of its attempts costs a request, a timer and a recorded failure, and 32 at a time
   * (every retry round of its backlog) took CPU and writes from the healthy endpoints. The first
   * request that ends in time gives it its full concurrency back. Its deliveries wait in the queue
   * meanwhile (their retries may start later than scheduled; none is skipped or lost).
   */
  timingOutEndpointConcurrency: number;
  /** How long a claim holds a delivery; must exceed the largest attempt timeout. Another instance takes it over after. */
  leaseMs: number;
  /** How often the queue is read for work this instance did not queue itself (other instances, redeliveries). */
  pollIntervalMs: number;
  /** Period of the outbox sweep that publishes owed DeliveryFailed events. */
  outboxIntervalMs: number;
  /** Period of the look for holds of dead instances. */
  recoveryIntervalMs: number;
  /**
   * How long a fresh delivery waits for a slot of its endpoint before it goes to the queue. A busy
   * but healthy endpoint frees a slot within milliseconds, and sending from memory is many times
   * cheaper than a round trip through the queue. An endpoint whose recent requests ran into half its
   * timeout is not waited for: its work is queued at once, so a dead endpoint holds no acceptance
   * (and no Kafka record).
   */
  slotWaitMs: number;
}

export const DEFAULT_WORKER_OPTIONS: Omit<DeliveryWorkerOptions, 'instanceId'> = {
  concurrency: 512,
  perEndpointConcurrency: 32,
  timingOutEndpointConcurrency: 2,
  leaseMs: 60_000,
  pollIntervalMs: 1_000,
  outboxIntervalMs: 5_000,
  recoveryIntervalMs: 1_000,
  slotWaitMs: 1_000,
};

/** Entries claimed per round: one insertMany of lease documents. */
export const MAX_CLAIM_BATCH = 200;
/** Queue entries read per look at the queue. */
const SCAN_LIMIT = 1_000;
/** Wait for a slot of a full endpoint none of whose requests has ended yet. */
const UNKNOWN_ENDPOINT_WAIT_MS = 500;
/** Expired holds recovered per sweep. */
const RECOVERY_LIMIT = 20;

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

interface Job {
  entry: QueueEntry;
  source: ClaimSource;
  delivery?: Delivery;
  endpoint?: WebhookEndpoint;
  holdId?: string;
}

/**
 * The delivery scheduler of one notifier instance. Fresh deliveries offered here are sent at once
 * from memory: the hold written with them (one document per batch) is their claim and their safety
 * net. Everything else (retries, overflow past an endpoint's limit, redeliveries, work of dead
 * instances) is a queue entry in the database, known here from what this instance queued and from a
 * periodic read, and claimed attempt by attempt with a unique insert (LeaseClaims), so no two
 * instances ever make the same attempt. Slots: `concurrency` in flight, at most
 * `perEndpointConcurrency` per endpoint, so a dead endpoint cannot take the others' slots.
 */
export class DeliveryWorker implements DeliveryIntake {
  private readonly options: DeliveryWorkerOptions;
  private readonly runner: AttemptRunner;
  private readonly work = new WorkSchedule();
  private readonly holds: HoldTracker;
  private running = false;
  /** Deliveries with an attempt running here: a read of the queue must not schedule them again. */
  private readonly attempting = new Set<string>();
  private abandoned = false;
  private loopDone: Promise<void> = Promise.resolve();
  private readonly hardStop = new AbortController();
  private wakeUp: (() => void) | undefined;
  private poked = false;
  private readonly backgroundTasks = new Map<string, Promise<unknown>>();
  private scanRequested = true;
  private active = 0;
  private readonly perEndpoint = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Acceptances waiting for a slot: of any endpoint (all busy: back-pressure on the consumer), or of their own. */
  private readonly slotWaiters: (() => void)[] = [];
  private readonly endpointWaiters = new Map<string, (() => void)[]>();
  /** Recent request duration per endpoint (moving average, ms): tells a busy endpoint from a slow one. */
  private readonly requestMs = new Map<string, number>();
  private readonly busySince = new Map<string, number>();
  /** Endpoints whose last request timed out: held to timingOutEndpointConcurrency. */
  private readonly timingOut = new Set<string>();
  private lastOutboxSweep = 0;
  private lastRecovery = 0;
  private lastScan = 0;

  constructor(
    private readonly deps: DeliveryWorkerDeps,
    options: Partial<DeliveryWorkerOptions> & { instanceId: string },
  ) {
    this.options = { ...DEFAULT_WORKER_OPTIONS, ...options };
    this.runner = new AttemptRunner(deps);
    this.holds = new HoldTracker(deps.store, deps.logger);
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
   * recording them: their claims expire and another instance makes those attempts again (at least once).
   */
  async stop({ graceMs = 10_000 }: { graceMs?: number } = {}): Promise<void> {
    this.running = false;
    for (const wake of this.slotWaiters.splice(0)) wake();
    for (const waiters of this.endpointWaiters.values()) for (const wake of waiters.splice(0)) wake();
    this.poke();
    await this.loopDone;
    await Promise.allSettled([...this.backgroundTasks.values()]);
    const drained = Promise.allSettled([...this.inFlight]).then(() => true);
    const inTime = await Promise.race([drained, sleep(graceMs).then(() => false)]);
    if (!inTime) {
      this.abandoned = true;
      this.hardStop.abort(new Error('notifier stopping'));
      await Promise.allSettled([...this.inFlight]);
    }
  }

  /** Asks the loop to read the queue now (work was queued that this instance did not queue itself). */
  wake(): void {
    this.scanRequested = true;
    this.poke();
  }

  /**
   * Remembers a queue entry this instance wrote (overflow), to claim it when due without a read; the
   * delivery it has in hand then needs no read either.
   */
  schedule(entry: QueueEntry, delivery?: Delivery): void {
    this.work.put(entry, delivery);
    this.poke();
  }

  /**
   * Takes a fresh delivery (DeliveryIntake). With a slot free here it is sent from memory: the hold
   * (one document per batch) is the claim of attempt 1 and the safety net if this instance dies before
   * the attempt is recorded. An endpoint at its limit here (slow or dead) has its work queued, and
   * remembered here to be claimed when due. The hold's lease and the entry's due time count from the
   * delivery's acceptance (`createdAt`), the time a replay of its event also counts from.
   */
  async offer(delivery: Delivery, endpoint: WebhookEndpoint): Promise<void> {
    const { store } = this.deps;
    const acceptedAt = delivery.createdAt;
    const entry = queueEntry(delivery, endpoint.id, acceptedAt, {});
    if (await this.reserveSlot(endpoint.id, endpoint.deliveryPolicy.timeoutMs)) {
      let hold: { holdId: string; size: number };
      try {
        hold = await store.hold({ deliveryId: delivery.id, accountId: delivery.accountId, endpointId: endpoint.id }, this.options.instanceId, new Date(acceptedAt.getTime() + this.options.leaseMs));
      } catch (error) {
        this.unreserve(endpoint.id);
        throw error;
      }
      this.holds.attach(hold.holdId, hold.size);
      this.track({ entry, source: 'hold', delivery, endpoint, holdId: hold.holdId });
      return;
    }
    await store.enqueue(entry);
    this.schedule(entry, delivery);
  }

  /**
   * Takes a slot for a fresh delivery of `endpointId`. Waits while every slot of the instance is busy
   * (back-pressure: the consumer slows down rather than queueing everything), and up to `slotWaitMs`
   * while its endpoint is at its limit; false then (a slow endpoint's work goes to the queue), or
   * when the worker stops.
   */
  private async reserveSlot(endpointId: string, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + this.options.slotWaitMs;
    for (;;) {
      if (!this.running) return false;
      if ((this.perEndpoint.get(endpointId) ?? 0) >= this.limit(endpointId)) {
        const patience = this.patience(endpointId, timeoutMs);
        if (patience === 0 || this.waitersFull(endpointId)) return false;
        const left = Math.min(deadline - Date.now(), patience);
        if (left <= 0 || !(await this.waitForEndpoint(endpointId, left))) return false;
        continue;
      }
      if (this.active < this.options.concurrency) {
        this.reserve(endpointId);
        return true;
      }
      await new Promise<void>((resolve) => this.slotWaiters.push(resolve));
    }
  }

  /**
   * How long to wait for a slot of a full endpoint: `slotWaitMs` while its requests end well inside
   * their timeout (a busy, healthy receiver, however slow the machine), nothing once they run into
   * half of it (dead or dying), and while none has ended yet, until its first requests have been out
   * for UNKNOWN_ENDPOINT_WAIT_MS.
   */
  private patience(endpointId: string, timeoutMs: number): number {
    const took = this.requestMs.get(endpointId);
    if (took === undefined) return Math.max(0, (this.busySince.get(endpointId) ?? Date.now()) + UNKNOWN_ENDPOINT_WAIT_MS - Date.now());
    return took < timeoutMs / 2 ? this.options.slotWaitMs : 0;
  }

  /**
   * Whether the acceptances already waiting for a slot of a full endpoint none of whose requests has
   * ended are as many as its slots. Each waiter is a Kafka record (of the 256 in flight per partition)
   * that other endpoints' records queue behind: a dead endpoint's share of them, all waiting out
   * UNKNOWN_ENDPOINT_WAIT_MS at once, stalled every acceptance for that long (the dead-endpoint
   * benchmark's loss). Beyond this many, its work goes to the queue at once.
   */
  private waitersFull(endpointId: string): boolean {
    return !this.requestMs.has(endpointId) && (this.endpointWaiters.get(endpointId)?.length ?? 0) >= this.options.perEndpointConcurrency;
  }

  /** True when a slot of the endpoint was freed within `ms`. */
  private waitForEndpoint(endpointId: string, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const waiters = this.endpointWaiters.get(endpointId) ?? [];
      this.endpointWaiters.set(endpointId, waiters);
      const wake = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        const at = waiters.indexOf(wake);
        if (at >= 0) waiters.splice(at, 1);
        if (waiters.length === 0 && this.endpointWaiters.get(endpointId) === waiters) this.endpointWaiters.delete(endpointId);
        resolve(false);
      }, ms);
      waiters.push(wake);
    });
  }

  /** Publishes DeliveryFailed for dead deliveries that still owe it; returns how many went out. */
  async publishOwedFailures(limit = 100): Promise<number> {
    const owed = await this.deps.store.pendingFailureEvents(limit);
    let sent = 0;
    for (const delivery of owed) if (await this.runner.publishFailure(delivery)) sent++;
    return sent;
  }

  private reserve(endpointId: string): void {
    this.active++;
    const used = this.perEndpoint.get(endpointId) ?? 0;
    if (used === 0 && !this.busySince.has(endpointId)) this.busySince.set(endpointId, Date.now());
    this.perEndpoint.set(endpointId, used + 1);
  }

  private unreserve(endpointId: string): void {
    this.releaseEndpoint(endpointId);
    this.releaseGlobal();
  }

  /** The instance's slot: held until the attempt is recorded, so a slow database slows acceptance. */
  private releaseGlobal(): void {
    this.active--;
    this.slotWaiters.shift()?.();
    this.poke();
  }

  /** The endpoint's slot: held while its request is out, given back before the (batched) recording. */
  private releaseEndpoint(endpointId: string): void {
    const left = (this.perEndpoint.get(endpointId) ?? 1) - 1;
    if (left <= 0) this.perEndpoint.delete(endpointId);
    else this.perEndpoint.set(endpointId, left);
    const waiters = this.endpointWaiters.get(endpointId);
    waiters?.shift()?.();
    if (waiters && waiters.length === 0) this.endpointWaiters.delete(endpointId);
    this.poke();
  }

  /** Attempts the endpoint may have in flight here now. */
  private limit(endpointId: string): number {
    const { perEndpointConcurrency, timingOutEndpointConcurrency } = this.options;
    return this.timingOut.has(endpointId) ? Math.min(timingOutEndpointConcurrency, perEndpointConcurrency) : perEndpointConcurrency;
  }

  private room(endpointId: string): number {
    return this.limit(endpointId) - (this.perEndpoint.get(endpointId) ?? 0);
  }

  private track(job: Job): void {
    let endpointHeld = true;
    const started = Date.now();
    // `timedOut` is undefined when no request was made (a stale entry, a dead-on-claim delivery):
    // that says nothing about the endpoint, so its probe limit stays as it is.
    const sent = (timedOut?: boolean): void => {
      if (!endpointHeld) return;
      endpointHeld = false;
      const { endpointId } = job.entry;
      if (timedOut === true) this.timingOut.add(endpointId);
      else if (timedOut === false) this.timingOut.delete(endpointId);
      const took = Date.now() - started;
      const before = this.requestMs.get(endpointId);
      this.requestMs.set(endpointId, before === undefined ? took : 0.7 * before + 0.3 * took);
      this.releaseEndpoint(endpointId);
    };
    this.attempting.add(job.entry.deliveryId);
    const run = this.run(job, sent).finally(() => {
      this.inFlight.delete(run);
      this.attempting.delete(job.entry.deliveryId);
      sent();
      this.releaseGlobal();
    });
    this.inFlight.add(run);
  }

  /** Wakes the loop, or makes its next idle return at once when it is busy (a wake is never lost). */
  private poke(): void {
    this.poked = true;
    this.wakeUp?.();
  }

  private idle(ms: number): Promise<void> {
    if (this.poked) {
      this.poked = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = (): void => {
        this.poked = false;
        clearTimeout(timer);
        if (this.wakeUp === done) this.wakeUp = undefined;
        resolve();
      };
      timer = setTimeout(done, Math.max(1, ms));
      this.wakeUp = done;
    });
  }

  /**
   * Runs a periodic read or sweep beside the claim loop, one of each kind at a time: a read that
   * scans a large queue on FerretDB must never keep due work waiting.
   */
  private background(kind: string, task: () => Promise<unknown>): void {
    if (this.backgroundTasks.has(kind)) return;
    const run = task()
      .catch((error: unknown) => this.deps.logger.error({ err: error, task: kind }, 'delivery background task failed; retrying'))
      .finally(() => {
        this.backgroundTasks.delete(kind);
        this.poke();
      });
    this.backgroundTasks.set(kind, run);
  }

  private async loop(): Promise<void> {
    while (this.running) {
      try {
        const now = Date.now();
        if (now - this.lastOutboxSweep >= this.options.outboxIntervalMs) {
          this.lastOutboxSweep = now;
          this.background('outbox', () => this.publishOwedFailures());
        }
        if (now - this.lastRecovery >= this.options.recoveryIntervalMs) {
          this.lastRecovery = now;
          this.background('recovery', () => this.recoverHolds());
        }
        if (this.scanRequested || now - this.lastScan >= this.options.pollIntervalMs) {
          this.scanRequested = false;
          this.lastScan = now;
          this.background('scan', () => this.scan());
        }
        const claimed = await this.claimRound();
        if (claimed === 0 && this.running) await this.idle(this.untilNextWork());
      } catch (error) {
        this.deps.logger.error({ err: error }, 'delivery loop failed; retrying');
        await this.idle(this.options.pollIntervalMs);
      }
    }
  }

  /** How long the loop may sleep: until the next scan, sweep or due entry (a freed slot wakes it earlier). */
  private untilNextWork(): number {
    const now = Date.now();
    const next = [this.lastScan + this.options.pollIntervalMs, this.lastRecovery + this.options.recoveryIntervalMs, this.lastOutboxSweep + this.options.outboxIntervalMs];
    const due = this.work.nextDueAt(now, (id) => this.room(id));
    if (due !== null) next.push(due);
    return Math.min(...next) - now;
  }

  /** Reads due queue entries into the schedule (one read of the small queue, not per delivery). */
  private async scan(): Promise<void> {
    const saturated = [...this.perEndpoint].filter(([id, n]) => n >= this.limit(id)).map(([id]) => id);
    const due = await this.deps.store.findDue({ now: this.deps.clock.now(), limit: SCAN_LIMIT, excludeEndpoints: saturated });
    for (const entry of due) if (!this.attempting.has(entry.deliveryId)) this.work.merge(entry);
  }

  /** Claims due work from the schedule that this instance has room for; returns how many it got. */
  private async claimRound(): Promise<number> {
    const free = Math.min(this.options.concurrency - this.active, MAX_CLAIM_BATCH);
    const chosen = this.work.take(this.deps.clock.now().getTime(), free, (id) => this.room(id));
    if (chosen.length === 0) return 0;
    for (const { entry } of chosen) this.reserve(entry.endpointId);
    const now = this.deps.clock.now();
    let claimed: QueueEntry[] = [];
    try {
      claimed = await this.deps.store.claim({ entries: chosen.map((c) => c.entry), owner: this.options.instanceId, now, leaseUntil: new Date(now.getTime() + this.options.leaseMs) });
    } finally {
      // Entries lost to another claimer are that claimer's now; a later read brings back what is left.
      const got = new Set(claimed.map((e) => e.deliveryId));
      for (const { entry } of chosen) if (!got.has(entry.deliveryId)) this.unreserve(entry.endpointId);
    }
    const known = new Map(chosen.map((c) => [c.entry.deliveryId, c.delivery]));
    for (const entry of claimed) {
      const delivery = known.get(entry.deliveryId);
      this.track({ entry, source: 'queue', ...(delivery ? { delivery } : {}) });
    }
    return claimed.length;
  }

  private async run(job: Job, sent: (timedOut?: boolean) => void): Promise<void> {
    const { entry } = job;
    let settled = false;
    try {
      const result = job.source === 'hold' ? await this.runHeld(job, sent) : await this.runQueued(job, sent);
      if (result.kind === 'retry') this.work.put(result.entry, result.delivery);
      settled = result.kind !== 'abandoned';
    } catch (error) {
      // Nothing recorded: the claim expires and the attempt is made again, here or elsewhere.
      if (!this.abandoned) this.deps.logger.error({ err: error, deliveryId: entry.deliveryId }, 'delivery attempt failed unexpectedly');
    } finally {
      if (job.holdId) this.holds.settle(job.holdId, settled);
    }
  }

  private runHeld(job: Job, sent: (timedOut?: boolean) => void): Promise<AttemptResult> {
    return this.runner.attempt(job.entry, job.delivery as Delivery, job.endpoint as WebhookEndpoint, 'hold', this.signals(sent));
  }

  private signals(sent: (timedOut?: boolean) => void): { abort: AbortSignal; abandoned: () => boolean; sent: (timedOut?: boolean) => void } {
    return { abort: this.hardStop.signal, abandoned: () => this.abandoned, sent };
  }

  private async runQueued({ entry, delivery: known }: Job, sent: (timedOut?: boolean) => void): Promise<AttemptResult> {
    const { store, endpoints } = this.deps;
    // Every change to a pending delivery is made by whoever claims its next attempt number, and this
    // instance holds that number: the copy it queued itself is current. Entries found by a read are
    // read in full.
    const delivery = known ?? (await store.get(entry.deliveryId));
    if (!delivery || delivery.status !== 'pending') {
      await store.dequeue([{ deliveryId: entry.deliveryId, attempt: entry.attempt }]); // finished elsewhere, or a stale entry
      return { kind: 'settled' };
    }
    const endpoint = await endpoints.get(entry.endpointId);
    if (!endpoint) return this.killed(entry, delivery, 'no-endpoint', 'the account has no webhook endpoint');
    if (endpoint.status === 'disabled') return this.killed(entry, delivery, 'endpoint-disabled', `endpoint disabled: ${endpoint.disabledReason ?? ''}`);
    const scheduledUsed = entry.attempt - entry.manualAttempts;
    if (!entry.single && entry.trigger === 'scheduled' && scheduledUsed > 1 + endpoint.deliveryPolicy.maxRetries) {
      // Attempts were claimed but never recorded (crashed instances): the budget is spent anyway.
      return this.killed(entry, delivery, 'retries-exhausted', 'attempts exhausted (some were lost in restarts)');
    }
    return this.runner.attempt(entry, delivery, endpoint, 'queue', this.signals(sent));
  }

  private async killed(entry: QueueEntry, delivery: Delivery, reason: Parameters<AttemptRunner['kill']>[2], error: string): Promise<AttemptResult> {
    await this.runner.kill(entry, delivery, reason, error);
    return { kind: 'settled' };
  }

  private async recoverHolds(): Promise<void> {
    const { store, clock, logger } = this.deps;
    const expired = await store.expiredHolds(clock.now(), RECOVERY_LIMIT);
    for (const hold of expired) for (const entry of await recoverHold(store, hold, clock.now())) this.work.put(entry);
    if (expired.length > 0) logger.warn({ holds: expired.map((h) => ({ id: h.id, owner: h.owner, deliveries: h.deliveries.length })) }, 'took over the fresh deliveries of a stopped notifier instance');
  }
}
