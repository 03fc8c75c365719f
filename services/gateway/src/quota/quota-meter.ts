import type { Logger } from '@stormhook/logger';
import { QuotaCounter } from './quota-counter.js';
import type { QuotaShares, ShareRead, ShareWrite } from './quota-shares.js';

/** One counting window of one account and service, as identity's CheckAccess hands it over. */
export interface MeteredWindow {
  accountId: string;
  service: string;
  limit: number;
  start: Date;
  end: Date;
}

export interface QuotaState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the counter starts again. */
  resetSeconds: number;
  /** Length of the window, in seconds (for RateLimit-Policy). */
  windowSeconds: number;
}

/** A reset that lies further ahead (QUOTA plans that never expire) is shown as one year. */
export const MAX_RESET_SECONDS = 365 * 24 * 3600;

export function counterKey(window: MeteredWindow): string {
  return `${window.accountId}|${window.service}|${window.start.getTime()}`;
}

function seconds(ms: number): number {
  return Math.min(MAX_RESET_SECONDS, Math.max(1, Math.ceil(ms / 1000)));
}

export interface QuotaMeterOptions {
  /** How often this instance writes its changed shares and reads the other instances' (ms). */
  syncIntervalMs: number;
  /**
   * How far the read of other instances' shares reaches back before the previous read, to cover
   * clocks of other instances running behind this one (their shares carry their own clock) (ms).
   */
  clockSkewMs: number;
  /** A counter unused this long, and fully written, is forgotten; its next call loads it again (ms). */
  idleMs?: number;
  /**
   * Learn every counter from the periodic read instead of loading each one on its first call, for
   * many short counters (the abuse limits: one per address and minute), where a load would be a
   * database round trip on most requests. The first read after `start()` reaches `lookbackMs` back
   * (the longest window counted), so counts of earlier processes still count; calls wait for it once.
   * Counters are then forgotten only when their window ends (a forgotten one could not be reloaded).
   */
  learnFromReads?: { lookbackMs: number };
  /**
   * Write a presence share every round and read the others', so a replica knows whether other
   * replicas run: local allowances (see `consume`) only bind while one does, and a lone replica
   * lets bursts through up to the limit itself. One more document in each round's bulk write.
   */
  announcePresence?: boolean;
  /**
   * How long after a write of this instance every other instance has surely read it: one sync
   * interval plus the longest sync round expected (ms; default two intervals). Local allowances
   * (see `consume`) count what this instance let through since its last write that old.
   */
  seenAfterMs?: number;
  logger: Logger;
  now?: () => number;
}

const DEFAULT_IDLE_MS = 10 * 60_000;
/** The presence share's counter key (no counter key starts with `~`); its count is the writer's clock. */
const PRESENCE_KEY = '~presence';
const DAY_MS = 86_400_000;

/**
 * Counts metered calls against the subscription's limits in memory, and shares the counts with the
 * other gateway instances through the database on an interval (the sync rate design of API
 * gateways): a call never waits on the database once its counter is loaded.
 *
 * - Decision: total = the other instances' shares as last read + this instance's own share, exact
 *   in memory. A call is let through while the total is below the limit, and then counted.
 * - Every `syncIntervalMs`: one bulk write of this instance's changed shares (absolute counts, one
 *   write per changed counter), then one query for every share any instance changed since the
 *   previous read (minus the clock skew allowance).
 * - First call of a counter in this process: its stored shares are loaded (one query, shared by
 *   the calls that arrive meanwhile). Counts of earlier processes, and of dead instances, are
 *   shares like any other, so they keep counting after a restart.
 *
 * Bounds: one instance alone never exceeds the limit. With R instances each serving r calls/s of
 * one counter, an instance sees another's call at most two intervals late (one until that instance
 * writes it, one until this one reads it), each stretched by how long a sync round takes (a loaded
 * database), so the limit is exceeded by at most R × r × 2 × (interval + round) calls. A crash loses the calls counted since the last successful write: at most one interval's
 * worth (r × interval) while the database is up, and everything counted while it was unreachable.
 */
export class QuotaMeter {
  private readonly counters = new Map<string, QuotaCounter>();
  /** Loads in flight, by counter key: the counter being loaded (reads apply to it too) and its load. */
  private readonly loading = new Map<string, { counter: QuotaCounter; done: Promise<QuotaCounter> }>();
  private readonly now: () => number;
  private readonly idleMs: number;
  private readonly seenAfterMs: number;
  private lastReadStartMs: number;
  private firstRead: Promise<void> | undefined;
  /** Other replicas' presence, by instance id: the writer's clock at its latest round seen. */
  private readonly presence = new Map<string, number>();
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly shares: QuotaShares,
    private readonly options: QuotaMeterOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.seenAfterMs = options.seenAfterMs ?? 2 * options.syncIntervalMs;
    this.lastReadStartMs = this.now() - (options.learnFromReads?.lookbackMs ?? 0);
  }

  /** Starts the periodic sync (learning meters read at once). */
  start(): void {
    if (this.timer) return;
    if (this.options.learnFromReads) this.firstRead = this.sync();
    this.timer = setInterval(() => void this.sync(), this.options.syncIntervalMs);
    this.timer.unref();
  }

  /** Stops the periodic sync and writes what is not written yet (graceful stop). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    await this.flush();
  }

  /**
   * Lets a call through while the counter's total is below the limit, and counts it. With a
   * `localAllowance`, this instance also refuses once it let that many calls through that other
   * instances may not have seen yet (`seenAfterMs`): each instance then exceeds what the others
   * know by at most the allowance, so R instances together let through at most
   * limit + (R - 1) × allowance, however fast the calls come (without it, up to R × limit).
   */
  async consume(window: MeteredWindow, localAllowance = Number.POSITIVE_INFINITY): Promise<QuotaState> {
    const counter = await this.counterOf(window);
    const now = this.now();
    counter.lastUsedMs = now;
    if (counter.total() >= window.limit) return this.state(window, false, window.limit);
    if (localAllowance < window.limit && this.othersRunning(now) && counter.unseen(now, this.seenAfterMs) >= localAllowance) {
      // The total is below the limit as far as this instance knows: ask again once its calls are seen.
      return { ...this.state(window, false, counter.total()), resetSeconds: seconds(this.seenAfterMs) };
    }
    counter.mine += 1;
    return this.state(window, true, counter.total());
  }

  /** Counts one event whatever the total (an answer already given, such as a 4xx); answers the new total. */
  async count(window: MeteredWindow): Promise<number> {
    const counter = await this.counterOf(window);
    counter.lastUsedMs = this.now();
    counter.mine += 1;
    return counter.total();
  }

  /** The counter's total as this instance knows it, without counting. */
  async total(window: MeteredWindow): Promise<number> {
    if (this.options.learnFromReads) {
      await this.firstRead;
      return this.counters.get(counterKey(window))?.total() ?? 0;
    }
    return (await this.counterOf(window)).total();
  }

  private async counterOf(window: MeteredWindow): Promise<QuotaCounter> {
    const key = counterKey(window);
    if (!this.options.learnFromReads) return this.counters.get(key) ?? (await this.load(window));
    await this.firstRead;
    let counter = this.counters.get(key);
    if (!counter) {
      counter = new QuotaCounter(key, window.end, this.now());
      this.counters.set(key, counter);
    }
    return counter;
  }

  /** Gives a counted call back (it did not succeed, so it does not count). */
  async refund(window: MeteredWindow): Promise<void> {
    const counter = this.counters.get(counterKey(window));
    // A counter forgotten since (its window ended) has nothing left to give back to.
    if (counter && counter.mine > 0) counter.mine -= 1;
  }

  /** One sync round: write this instance's changes, then read the others'. Never throws. */
  sync(): Promise<void> {
    // One round at a time: a slow database must not pile rounds up, nor reorder this instance's writes.
    if (this.running) return this.running;
    const round = (async () => {
      try {
        await this.flush();
        await this.readOthers();
        this.forgetIdle();
      } catch (error) {
        this.options.logger.warn({ err: error }, 'quota sync failed; counting goes on in memory and the next round retries');
      }
    })();
    this.running = round;
    void round.finally(() => {
      if (this.running === round) this.running = undefined;
    });
    return round;
  }

  /** The number of counters held in memory. */
  get size(): number {
    return this.counters.size;
  }

  private load(window: MeteredWindow): Promise<QuotaCounter> {
    const key = counterKey(window);
    const inFlight = this.loading.get(key);
    if (inFlight) return inFlight.done;
    const counter = new QuotaCounter(key, window.end, this.now());
    const self = this.shares.instanceId;
    const done = (async () => {
      try {
        for (const share of await this.shares.sharesOf(key)) {
          if (share.instance === self) counter.adoptOwn(share);
          else counter.apply(share, self);
        }
        this.counters.set(key, counter);
        return counter;
      } finally {
        this.loading.delete(key);
      }
    })();
    this.loading.set(key, { counter, done });
    return done;
  }

  /**
   * Whether another replica wrote its presence recently enough to be running (its clock may lag by
   * the skew allowance). Without presence announced, others are assumed to run.
   */
  private othersRunning(nowMs: number): boolean {
    if (!this.options.announcePresence) return true;
    const since = nowMs - 2 * this.seenAfterMs - this.options.clockSkewMs;
    for (const [instance, atMs] of this.presence) {
      if (atMs >= since) return true;
      this.presence.delete(instance);
    }
    return false;
  }

  private async flush(): Promise<void> {
    const pending: Array<[QuotaCounter, number]> = [];
    const writes: ShareWrite[] = [];
    if (this.options.announcePresence) {
      const now = this.now();
      // Kept a day past its last write, then purged with ended windows.
      writes.push({ key: PRESENCE_KEY, count: now, seq: now, windowEndsAt: new Date(now + DAY_MS) });
    }
    for (const counter of this.counters.values()) {
      const write = counter.pendingWrite();
      if (!write) continue;
      writes.push(write);
      pending.push([counter, write.count]);
    }
    if (writes.length === 0) return;
    await this.shares.write(writes, new Date(this.now()));
    const doneMs = this.now();
    for (const [counter, count] of pending) counter.persistedAs(count, doneMs);
  }

  private async readOthers(): Promise<void> {
    const startedMs = this.now();
    const since = new Date(this.lastReadStartMs - this.options.clockSkewMs);
    const changed = await this.shares.changedSince(since);
    for (const share of changed) {
      if (share.key === PRESENCE_KEY) {
        if (share.instance !== this.shares.instanceId) this.presence.set(share.instance, Math.max(share.count, this.presence.get(share.instance) ?? 0));
        continue;
      }
      // Counters loading now are covered too: their load and this read merge by write sequence.
      const counter = this.counters.get(share.key) ?? this.loading.get(share.key)?.counter ?? this.learn(share, startedMs);
      counter?.apply(share, this.shares.instanceId);
    }
    this.lastReadStartMs = startedMs;
  }

  /** A counter another instance started, held from now on when this meter learns counters from reads. */
  private learn(share: ShareRead, nowMs: number): QuotaCounter | undefined {
    if (!this.options.learnFromReads || share.instance === this.shares.instanceId) return undefined;
    if (!share.windowEndsAt || share.windowEndsAt.getTime() <= nowMs) return undefined;
    const counter = new QuotaCounter(share.key, share.windowEndsAt, nowMs);
    this.counters.set(share.key, counter);
    return counter;
  }

  /** Forgets counters whose window ended or that sat unused, once their count is written. */
  private forgetIdle(): void {
    const now = this.now();
    const idleMs = this.options.learnFromReads ? Number.POSITIVE_INFINITY : this.idleMs;
    for (const [key, counter] of this.counters) {
      if (counter.dirty) continue;
      if (counter.windowEnd.getTime() <= now || now - counter.lastUsedMs > idleMs) this.counters.delete(key);
    }
  }

  private state(window: MeteredWindow, allowed: boolean, used: number): QuotaState {
    const now = this.now();
    return {
      allowed,
      limit: window.limit,
      remaining: Math.max(0, window.limit - used),
      resetSeconds: seconds(window.end.getTime() - now),
      windowSeconds: seconds(window.end.getTime() - window.start.getTime()),
    };
  }
}

/**
 * The rate-limit headers of draft-ietf-httpapi-ratelimit-headers in their separate-field form
 * (RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset in seconds, RateLimit-Policy), which most
 * clients and proxies read. Retry-After is added on a 429.
 */
export function quotaHeaders(state: QuotaState): Record<string, string> {
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(state.resetSeconds),
    'RateLimit-Policy': `${state.limit};w=${state.windowSeconds}`,
    ...(state.allowed ? {} : { 'Retry-After': String(state.resetSeconds) }),
  };
}
