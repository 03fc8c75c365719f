import type { DeliveryWorkerOptions } from './worker-options.js';

/** Wait for a slot of a full endpoint none of whose requests has ended yet. */
const UNKNOWN_ENDPOINT_WAIT_MS = 500;

export type SlotLimits = Pick<DeliveryWorkerOptions, 'concurrency' | 'perEndpointConcurrency' | 'timingOutEndpointConcurrency' | 'slotWaitMs'>;

/**
 * The attempt slots of one instance: `concurrency` in flight, at most `perEndpointConcurrency` per
 * endpoint (`timingOutEndpointConcurrency` for one whose last request timed out), so a dead endpoint
 * cannot take the others' slots. An attempt holds two: its endpoint's while its request is out, the
 * instance's until it is recorded. How long each endpoint's requests take is kept here too: it tells a
 * busy endpoint (worth waiting for) from a slow one (whose work goes to the queue).
 */
export class AttemptSlots {
  /** Fresh deliveries may wait for a slot only while the worker runs. */
  private accepting = false;
  private active = 0;
  private readonly perEndpoint = new Map<string, number>();
  /** Acceptances waiting for a slot: of any endpoint (all busy: back-pressure on the consumer), or of their own. */
  private readonly slotWaiters: (() => void)[] = [];
  private readonly endpointWaiters = new Map<string, (() => void)[]>();
  /** Recent request duration per endpoint (moving average, ms): tells a busy endpoint from a slow one. */
  private readonly requestMs = new Map<string, number>();
  private readonly busySince = new Map<string, number>();
  /** Endpoints whose last request timed out: held to timingOutEndpointConcurrency. */
  private readonly timingOut = new Set<string>();

  /** `freed` is called whenever a slot is given back: the scheduler may have work for it. */
  constructor(
    private readonly limits: SlotLimits,
    private readonly freed: () => void,
  ) {}

  /** Slots of the instance not taken. */
  get free(): number {
    return this.limits.concurrency - this.active;
  }

  open(): void {
    this.accepting = true;
  }

  /** Refuses fresh deliveries from now on, and those waiting for a slot at once. */
  close(): void {
    this.accepting = false;
    for (const wake of this.slotWaiters.splice(0)) wake();
    for (const waiters of this.endpointWaiters.values()) for (const wake of waiters.splice(0)) wake();
  }

  /**
   * Takes a slot for a fresh delivery of `endpointId`. Waits while every slot of the instance is busy
   * (back-pressure: the consumer slows down rather than queueing everything), and up to `slotWaitMs`
   * while its endpoint is at its limit; false then (a slow endpoint's work goes to the queue), or
   * when the slots are closed.
   */
  async reserveFresh(endpointId: string, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + this.limits.slotWaitMs;
    for (;;) {
      if (!this.accepting) return false;
      if ((this.perEndpoint.get(endpointId) ?? 0) >= this.limit(endpointId)) {
        const patience = this.patience(endpointId, timeoutMs);
        if (patience === 0 || this.waitersFull(endpointId)) return false;
        const left = Math.min(deadline - Date.now(), patience);
        if (left <= 0 || !(await this.waitForEndpoint(endpointId, left))) return false;
        continue;
      }
      if (this.active < this.limits.concurrency) {
        this.reserve(endpointId);
        return true;
      }
      await new Promise<void>((resolve) => this.slotWaiters.push(resolve));
    }
  }

  /** Takes a slot of the instance and one of the endpoint, without waiting (the caller checked `room`). */
  reserve(endpointId: string): void {
    this.active++;
    const used = this.perEndpoint.get(endpointId) ?? 0;
    if (used === 0 && !this.busySince.has(endpointId)) this.busySince.set(endpointId, Date.now());
    this.perEndpoint.set(endpointId, used + 1);
  }

  /** Gives back both slots of an attempt that will not be made. */
  unreserve(endpointId: string): void {
    this.releaseEndpoint(endpointId);
    this.releaseGlobal();
  }

  /**
   * The request of an attempt is over after `tookMs`: its endpoint's slot goes to the next one while
   * the attempt is recorded. `timedOut` is undefined when no request was made (a stale entry, a
   * dead-on-claim delivery): that says nothing about the endpoint, so its probe limit stays as it is.
   */
  requestEnded(endpointId: string, tookMs: number, timedOut?: boolean): void {
    if (timedOut === true) this.timingOut.add(endpointId);
    else if (timedOut === false) this.timingOut.delete(endpointId);
    const before = this.requestMs.get(endpointId);
    this.requestMs.set(endpointId, before === undefined ? tookMs : 0.7 * before + 0.3 * tookMs);
    this.releaseEndpoint(endpointId);
  }

  /** The instance's slot: held until the attempt is recorded, so a slow database slows acceptance. */
  releaseGlobal(): void {
    this.active--;
    this.slotWaiters.shift()?.();
    this.freed();
  }

  /** Attempts the endpoint may start here now. */
  room(endpointId: string): number {
    return this.limit(endpointId) - (this.perEndpoint.get(endpointId) ?? 0);
  }

  /** Endpoints with no room here: a read of the queue leaves their work for later. */
  saturated(): string[] {
    return [...this.perEndpoint].filter(([id, n]) => n >= this.limit(id)).map(([id]) => id);
  }

  /** The endpoint's slot: held while its request is out, given back before the (batched) recording. */
  private releaseEndpoint(endpointId: string): void {
    const left = (this.perEndpoint.get(endpointId) ?? 1) - 1;
    if (left <= 0) this.perEndpoint.delete(endpointId);
    else this.perEndpoint.set(endpointId, left);
    const waiters = this.endpointWaiters.get(endpointId);
    waiters?.shift()?.();
    if (waiters && waiters.length === 0) this.endpointWaiters.delete(endpointId);
    this.freed();
  }

  /** Attempts the endpoint may have in flight here now. */
  private limit(endpointId: string): number {
    const { perEndpointConcurrency, timingOutEndpointConcurrency } = this.limits;
    return this.timingOut.has(endpointId) ? Math.min(timingOutEndpointConcurrency, perEndpointConcurrency) : perEndpointConcurrency;
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
    return took < timeoutMs / 2 ? this.limits.slotWaitMs : 0;
  }

  /**
   * Whether the acceptances already waiting for a slot of a full endpoint none of whose requests has
   * ended are as many as its slots. Each waiter is a Kafka record (of the 256 in flight per partition)
   * that other endpoints' records queue behind: a dead endpoint's share of them, all waiting out
   * UNKNOWN_ENDPOINT_WAIT_MS at once, stalled every acceptance for that long (the dead-endpoint
   * benchmark's loss). Beyond this many, its work goes to the queue at once.
   */
  private waitersFull(endpointId: string): boolean {
    return !this.requestMs.has(endpointId) && (this.endpointWaiters.get(endpointId)?.length ?? 0) >= this.limits.perEndpointConcurrency;
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
}
