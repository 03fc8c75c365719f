import type { Logger } from '@stormhook/logger';
import { emptyStats, HOUR_MS, prune, recordAttempt, recordRecovery, WEEK_MS, type AccountStats, type RecordedAttempt } from '../domain/webhook-stats.js';
import type { Clock } from '../ports/clock.js';
import type { WebhookStatsSink } from '../ports/webhook-stats-sink.js';
import type { WebhookStatsStore } from '../ports/webhook-stats-store.js';

export interface WebhookStatsRecorderOptions {
  /** This process's writer id: unique per process start, so a restart never overwrites what it wrote before. */
  writerId: string;
  /** How often changed accounts are written (the staleness of other instances' figures). */
  flushIntervalMs: number;
  /** At most this many accounts per write round; the rest wait for the next round. */
  maxAccountsPerFlush: number;
}

/**
 * How the statistics are written unless configured otherwise (the service's defaults and the benches').
 * 50 accounts a round is 10 replaces a second. At 500 (100 a second) the city storm's 1,497 accounts,
 * whose documents grow by a minute bucket a minute, took the embedded database from the deliveries:
 * 490 deliveries/s against 549/s at 50, p99 150 s against 75 s (bench/README.md). With 1,497 accounts
 * changing at once, each account's figures then reach other replicas about every 150 s instead of
 * 15 s; the process answering always adds its own memory.
 */
export const DEFAULT_STATS_WRITES = { flushIntervalMs: 5_000, maxAccountsPerFlush: 50 } as const;

/** Known future retries per account: the earliest is reported; a storm of retries keeps only the earliest ones. */
const MAX_RETRIES_KEPT = 1_000;

/**
 * This instance's share of every account's webhook statistics, kept in memory as attempts end and
 * written in the background: at most `maxAccountsPerFlush` replaces per `flushIntervalMs`, never a
 * database round trip per attempt. The health answer merges this instance's memory with what the other
 * writers last wrote (usecases/webhook-health.ts).
 */
export class WebhookStatsRecorder implements WebhookStatsSink {
  private readonly accounts = new Map<string, AccountStats>();
  /** Future retry times per account, ascending (not persisted: the earliest goes into nextRetryAt). */
  private readonly retries = new Map<string, number[]>();
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private registered = false;
  private lastForget = 0;

  constructor(
    private readonly deps: { store: WebhookStatsStore; clock: Clock; logger: Logger },
    readonly options: WebhookStatsRecorderOptions,
  ) {}

  private stats(accountId: string): AccountStats {
    let stats = this.accounts.get(accountId);
    if (!stats) {
      stats = emptyStats(accountId);
      this.accounts.set(accountId, stats);
    }
    this.dirty.add(accountId);
    return stats;
  }

  /** A delivery was accepted or reopened here: it waits until someone finishes it. */
  opened(accountId: string): void {
    this.stats(accountId).opened += 1;
  }

  /** A delivery finished here (succeeded, or dead). */
  closed(accountId: string): void {
    this.stats(accountId).closed += 1;
  }

  attempted(accountId: string, attempt: RecordedAttempt): void {
    recordAttempt(this.stats(accountId), attempt);
  }

  recovered(accountId: string, jobId: string, succeeded: boolean): void {
    recordRecovery(this.stats(accountId), jobId, succeeded, this.deps.clock.now().getTime());
  }

  retryScheduled(accountId: string, dueAt: number): void {
    const list = this.retries.get(accountId) ?? [];
    let i = list.length;
    while (i > 0 && (list[i - 1] as number) > dueAt) i--;
    list.splice(i, 0, dueAt);
    if (list.length > MAX_RETRIES_KEPT) list.length = MAX_RETRIES_KEPT;
    this.retries.set(accountId, list);
    this.stats(accountId);
  }

  /** The earliest retry still in the future, dropping those already due. */
  private nextRetry(accountId: string, now: number): number | null {
    const list = this.retries.get(accountId);
    if (!list) return null;
    let due = 0;
    while (due < list.length && (list[due] as number) <= now) due++;
    if (due > 0) list.splice(0, due);
    if (list.length === 0) this.retries.delete(accountId);
    return list[0] ?? null;
  }

  /** This instance's current statistics of the account (a copy), or undefined when it has none. */
  current(accountId: string): AccountStats | undefined {
    const stats = this.accounts.get(accountId);
    if (!stats) return undefined;
    const now = this.deps.clock.now().getTime();
    prune(stats, now);
    return structuredClone({ ...stats, nextRetryAt: this.nextRetry(accountId, now) });
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.options.flushIntervalMs);
    this.timer.unref();
    void this.forgetOldWriters();
  }

  /**
   * Processes that have not written for longer than the longest window have nothing left to say:
   * their documents go (at each start and once a day), so the writers a health answer reads stay few.
   */
  private async forgetOldWriters(): Promise<void> {
    const now = this.deps.clock.now().getTime();
    if (now - this.lastForget < 24 * HOUR_MS) return;
    this.lastForget = now;
    try {
      const removed = await this.deps.store.removeWritersBefore(new Date(now - WEEK_MS - HOUR_MS));
      if (removed > 0) this.deps.logger.info({ writers: removed }, 'webhook statistics of processes silent for a week removed');
    } catch (error) {
      this.lastForget = 0;
      this.deps.logger.warn({ err: error }, 'old webhook statistics not removed; trying again later');
    }
  }

  /** Writes the changed accounts (at most one round at a time). */
  flush(): Promise<void> {
    this.flushing ??= this.writeRound().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async writeRound(): Promise<void> {
    void this.forgetOldWriters();
    if (this.dirty.size === 0) return;
    const now = this.deps.clock.now();
    const ids = [...this.dirty].slice(0, this.options.maxAccountsPerFlush);
    const batch: AccountStats[] = [];
    for (const id of ids) {
      this.dirty.delete(id);
      const stats = this.accounts.get(id);
      if (!stats) continue;
      prune(stats, now.getTime());
      stats.nextRetryAt = this.nextRetry(id, now.getTime());
      batch.push(structuredClone(stats));
    }
    try {
      if (!this.registered) {
        await this.deps.store.touchWriter(this.options.writerId, now);
        this.registered = true;
      }
      await this.deps.store.save(this.options.writerId, batch);
      await this.deps.store.touchWriter(this.options.writerId, now);
    } catch (error) {
      for (const id of ids) this.dirty.add(id); // written next round
      this.deps.logger.warn({ err: error, accounts: ids.length }, 'webhook statistics not written yet; retrying next round');
    }
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flushing;
    // Every round writes up to maxAccountsPerFlush; a round that fails leaves its accounts dirty, so stop trying then.
    for (let left = this.dirty.size; left > 0;) {
      await this.flush();
      if (this.dirty.size >= left) break;
      left = this.dirty.size;
    }
  }
}
