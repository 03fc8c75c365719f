import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@stormhook/logger';
import type { Delivery } from '../domain/delivery.js';
import type { WebhookEndpoint } from '../domain/endpoint.js';
import type { DeliveryMetrics } from '../metrics/delivery-metrics.js';
import type { Clock } from '../ports/clock.js';
import type { DeliveryIntake } from '../ports/delivery-intake.js';
import { queueEntry, type DeliveryStore, type QueueEntry } from '../ports/delivery-store.js';
import type { NotifierEventPublisher } from '../ports/event-publisher.js';
import type { HttpSender } from '../ports/http-sender.js';
import { AttemptRunner, type ClaimedAttempt } from './attempt-runner.js';
import { AttemptSlots } from './attempt-slots.js';
import type { EndpointCache } from './endpoint-cache.js';
import type { EndpointHealth } from './endpoint-health.js';
import { recoverHold } from './hold-recovery.js';
import { HoldTracker } from './hold-tracker.js';
import { WorkSchedule } from './work-schedule.js';
import { DEFAULT_WORKER_OPTIONS, type DeliveryWorkerOptions } from './worker-options.js';
import type { WebhookStatsSink } from '../ports/webhook-stats-sink.js';

/** Entries claimed per round: one insertMany of lease documents. */
export const MAX_CLAIM_BATCH = 200;
/** Queue entries read per look at the queue. */
const SCAN_LIMIT = 1_000;
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
  stats?: WebhookStatsSink;
}

/**
 * The delivery scheduler of one notifier instance. Fresh deliveries offered here are sent at once
 * from memory: the hold written with them (one document per batch) is their claim and their safety
 * net. Everything else (retries, overflow past an endpoint's limit, redeliveries, work of dead
 * instances) is a queue entry in the database, known here from what this instance queued and from a
 * periodic read, and claimed attempt by attempt with a unique insert (LeaseClaims), so no two
 * instances ever make the same attempt. Slots (AttemptSlots) bound what runs at once; each attempt is
 * the AttemptRunner's.
 */
export class DeliveryWorker implements DeliveryIntake {
  private readonly options: DeliveryWorkerOptions;
  private readonly runner: AttemptRunner;
  private readonly slots: AttemptSlots;
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
  private readonly inFlight = new Set<Promise<void>>();
  private lastOutboxSweep = 0;
  private lastRecovery = 0;
  private lastScan = 0;

  constructor(
    private readonly deps: DeliveryWorkerDeps,
    options: Partial<DeliveryWorkerOptions> & { instanceId: string },
  ) {
    this.options = { ...DEFAULT_WORKER_OPTIONS, ...options };
    this.runner = new AttemptRunner(deps);
    this.slots = new AttemptSlots(this.options, () => this.poke());
    this.holds = new HoldTracker(deps.store, deps.logger);
  }

  get instanceId(): string {
    return this.options.instanceId;
  }

  /** How long a claim (a lease, or the hold of a fresh delivery's first attempt) lasts. */
  get leaseMs(): number {
    return this.options.leaseMs;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.slots.open();
    this.loopDone = this.loop();
  }

  /**
   * Stops claiming, lets attempts in flight finish for up to `graceMs`, then abandons the rest without
   * recording them: their claims expire and another instance makes those attempts again (at least once).
   */
  async stop({ graceMs = 10_000 }: { graceMs?: number } = {}): Promise<void> {
    this.running = false;
    this.slots.close();
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
    if (await this.slots.reserveFresh(endpoint.id, endpoint.deliveryPolicy.timeoutMs)) {
      let hold: { holdId: string; size: number };
      try {
        hold = await store.hold(
          { deliveryId: delivery.id, accountId: delivery.accountId, endpointId: endpoint.id },
          this.options.instanceId,
          new Date(acceptedAt.getTime() + this.options.leaseMs),
        );
      } catch (error) {
        this.slots.unreserve(endpoint.id);
        throw error;
      }
      this.holds.attach(hold.holdId, hold.size);
      this.track({ source: 'hold', entry, delivery, endpoint, holdId: hold.holdId });
      return;
    }
    await store.enqueue(entry);
    this.schedule(entry, delivery);
  }

  /** Publishes DeliveryFailed for dead deliveries that still owe it; returns how many went out. */
  async publishOwedFailures(limit = 100): Promise<number> {
    const owed = await this.deps.store.pendingFailureEvents(limit);
    let sent = 0;
    for (const delivery of owed) if (await this.runner.publishFailure(delivery)) sent++;
    return sent;
  }

  /** Runs a claimed attempt whose slots are reserved, and gives them back as it goes. */
  private track(claimed: ClaimedAttempt): void {
    const { deliveryId, endpointId } = claimed.entry;
    let endpointHeld = true;
    const started = Date.now();
    const sent = (timedOut?: boolean): void => {
      if (!endpointHeld) return;
      endpointHeld = false;
      this.slots.requestEnded(endpointId, Date.now() - started, timedOut);
    };
    this.attempting.add(deliveryId);
    const run = this.runner
      .run(claimed, { abort: this.hardStop.signal, abandoned: () => this.abandoned, sent })
      .then((result) => {
        if (result.kind === 'retry') this.work.put(result.entry, result.delivery);
        // A hold is released once all its deliveries are settled; one that is not keeps it until recovery.
        if (claimed.source === 'hold') this.holds.settle(claimed.holdId, result.kind === 'settled' || result.kind === 'retry');
      })
      .finally(() => {
        this.inFlight.delete(run);
        this.attempting.delete(deliveryId);
        sent();
        this.slots.releaseGlobal();
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
    const next = [
      this.lastScan + this.options.pollIntervalMs,
      this.lastRecovery + this.options.recoveryIntervalMs,
      this.lastOutboxSweep + this.options.outboxIntervalMs,
    ];
    const due = this.work.nextDueAt(now, (id) => this.slots.room(id));
    if (due !== null) next.push(due);
    return Math.min(...next) - now;
  }

  /** Reads due queue entries into the schedule (one read of the small queue, not per delivery). */
  private async scan(): Promise<void> {
    const due = await this.deps.store.findDue({ now: this.deps.clock.now(), limit: SCAN_LIMIT, excludeEndpoints: this.slots.saturated() });
    for (const entry of due) if (!this.attempting.has(entry.deliveryId)) this.work.merge(entry);
  }

  /** Claims due work from the schedule that this instance has room for; returns how many it got. */
  private async claimRound(): Promise<number> {
    const free = Math.min(this.slots.free, MAX_CLAIM_BATCH);
    const chosen = this.work.take(this.deps.clock.now().getTime(), free, (id) => this.slots.room(id));
    if (chosen.length === 0) return 0;
    for (const { entry } of chosen) this.slots.reserve(entry.endpointId);
    const now = this.deps.clock.now();
    let claimed: QueueEntry[] = [];
    try {
      claimed = await this.deps.store.claim({
        entries: chosen.map((c) => c.entry),
        owner: this.options.instanceId,
        now,
        leaseUntil: new Date(now.getTime() + this.options.leaseMs),
      });
    } finally {
      // Entries lost to another claimer are that claimer's now; a later read brings back what is left.
      const got = new Set(claimed.map((e) => e.deliveryId));
      for (const { entry } of chosen) if (!got.has(entry.deliveryId)) this.slots.unreserve(entry.endpointId);
    }
    const known = new Map(chosen.map((c) => [c.entry.deliveryId, c.delivery]));
    for (const entry of claimed) {
      const delivery = known.get(entry.deliveryId);
      this.track({ source: 'queue', entry, ...(delivery ? { delivery } : {}) });
    }
    return claimed.length;
  }

  private async recoverHolds(): Promise<void> {
    const { store, clock, logger } = this.deps;
    const expired = await store.expiredHolds(clock.now(), RECOVERY_LIMIT);
    for (const hold of expired) for (const entry of await recoverHold(store, hold, clock.now())) this.work.put(entry);
    if (expired.length > 0)
      logger.warn(
        { holds: expired.map((h) => ({ id: h.id, owner: h.owner, deliveries: h.deliveries.length })) },
        'took over the fresh deliveries of a stopped notifier instance',
      );
  }
}
