import type { MeteredWindow, QuotaState } from '../quota/quota-meter.js';

/**
 * The counters the abuse limits count in: the quota meter over its own collection (service.ts),
 * so every gateway replica counts into the same totals without a database round trip per request.
 */
export interface SharedCounter {
  consume(window: MeteredWindow, localAllowance?: number): Promise<QuotaState>;
  count(window: MeteredWindow): Promise<number>;
  total(window: MeteredWindow): Promise<number>;
  /** Gives back one call this replica counted in the window. */
  refund(window: MeteredWindow): Promise<void>;
}

/** A call a limit let through, which can be given back once it turns out not to count (it failed). */
export type Taken = { allowed: true; giveBack(): Promise<void> } | { allowed: false; waitSeconds: number };

/** One family of limits (one name, one limit, one window length), in clock-aligned windows. */
export class WindowedLimit {
  /**
   * What one replica may let through of one counter before the other replicas can have seen it:
   * R replicas together let through at most limit + (R - 1) × this per window (QuotaMeter.consume).
   */
  readonly localAllowance: number;

  constructor(
    private readonly family: string,
    readonly limit: number,
    private readonly windowMs: number,
    private readonly counter: SharedCounter,
    localAllowancePercent: number,
    private readonly now: () => number,
  ) {
    this.localAllowance = Math.max(1, Math.ceil((limit * localAllowancePercent) / 100));
  }

  get enabled(): boolean {
    return this.limit > 0;
  }

  window(key: string): MeteredWindow {
    const startMs = Math.floor(this.now() / this.windowMs) * this.windowMs;
    return { accountId: key, service: this.family, limit: this.limit, start: new Date(startMs), end: new Date(startMs + this.windowMs) };
  }

  /** Counts a call; answers the seconds to wait when over, undefined when allowed. */
  async take(key: string): Promise<number | undefined> {
    const taken = await this.takeBack(key);
    return taken.allowed ? undefined : taken.waitSeconds;
  }

  /** Counts a call as take does, and lets it be given back later, to the window it was counted in. */
  async takeBack(key: string): Promise<Taken> {
    if (!this.enabled) return { allowed: true, giveBack: async () => undefined };
    const window = this.window(key);
    const state = await this.counter.consume(window, this.localAllowance);
    return state.allowed ? { allowed: true, giveBack: () => this.counter.refund(window) } : { allowed: false, waitSeconds: state.resetSeconds };
  }
}

const MAX_BLOCKS_HELD = 10_000;

/**
 * Counts events (4xx answers) per key and blocks a key for `blockMs` once a window's shared total
 * passes the limit. Each replica starts the block when it learns of the excess (at most a sync lag
 * after the event that caused it), so the block holds on every replica.
 */
export class ErrorBlock {
  private readonly blocks = new Map<string, { untilMs: number; windowStartMs: number }>();

  constructor(
    private readonly limit: WindowedLimit,
    private readonly counter: SharedCounter,
    private readonly blockMs: number,
    private readonly now: () => number,
  ) {}

  async note(key: string): Promise<void> {
    if (!this.limit.enabled) return;
    const window = this.limit.window(key);
    if ((await this.counter.count(window)) > this.limit.limit) this.block(key, window.start.getTime());
  }

  /** Seconds a key still has to wait when blocked (without counting anything). */
  async waiting(key: string): Promise<number | undefined> {
    if (!this.limit.enabled) return undefined;
    const now = this.now();
    const held = this.blocks.get(key);
    if (held && held.untilMs > now) return Math.max(1, Math.ceil((held.untilMs - now) / 1000));
    const window = this.limit.window(key);
    // A block served in full is not started again by the same window's count.
    if (held?.windowStartMs === window.start.getTime()) return undefined;
    if ((await this.counter.total(window)) <= this.limit.limit) return undefined;
    this.block(key, window.start.getTime());
    return Math.max(1, Math.ceil(this.blockMs / 1000));
  }

  private block(key: string, windowStartMs: number): void {
    const held = this.blocks.get(key);
    if (held && held.windowStartMs === windowStartMs) return;
    const now = this.now();
    if (this.blocks.size >= MAX_BLOCKS_HELD) for (const [k, b] of this.blocks) if (b.untilMs <= now - this.blockMs) this.blocks.delete(k);
    this.blocks.set(key, { untilMs: now + this.blockMs, windowStartMs });
  }
}
