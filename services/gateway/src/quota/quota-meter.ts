import type { QuotaStore } from './quota-store.js';

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

/**
 * Counts metered calls against the subscription's limits. A call first adds itself to its
 * instance's share, then reads the total: if that passes the limit it takes itself back out and
 * is refused. Two racing calls can therefore both be refused for the last unit, never both let
 * through: the limit is never exceeded, whatever the number of instances.
 *
 * Within one instance the checks of one counter run one at a time. Otherwise a burst would see its
 * own in-flight units in every total and refuse itself wholesale (twelve parallel calls against a
 * limit of five: all twelve add, all read twelve, all give back, none served). Serialised, only
 * calls of different instances can meet at the last unit. The cost is one counter write and read
 * per call and counter in sequence: hundreds of calls per second per account and service.
 */
export class QuotaMeter {
  /** The tail of the queue of checks of each counter. */
  private readonly checks = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: QuotaStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  consume(window: MeteredWindow): Promise<QuotaState> {
    const key = counterKey(window);
    const previous = this.checks.get(key) ?? Promise.resolve();
    const check = previous.catch(() => undefined).then(() => this.check(key, window));
    this.checks.set(key, check);
    void check
      .finally(() => {
        if (this.checks.get(key) === check) this.checks.delete(key);
      })
      .catch(() => undefined);
    return check;
  }

  private async check(key: string, window: MeteredWindow): Promise<QuotaState> {
    await this.store.add(key, 1, window.end);
    const total = await this.store.total(key);
    const allowed = total <= window.limit;
    if (!allowed) await this.store.add(key, -1, window.end);
    return this.state(window, allowed, allowed ? total : window.limit);
  }

  /** Gives a counted call back (it did not succeed, so it does not count). */
  async refund(window: MeteredWindow): Promise<void> {
    await this.store.add(counterKey(window), -1, window.end);
  }

  private state(window: MeteredWindow, allowed: boolean, used: number): QuotaState {
    return {
      allowed,
      limit: window.limit,
      remaining: Math.max(0, window.limit - used),
      resetSeconds: seconds(window.end.getTime() - this.now().getTime()),
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
