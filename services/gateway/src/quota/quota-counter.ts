import type { ShareRead, ShareWrite } from './quota-shares.js';

/**
 * One counter as one gateway instance knows it: its own share, counted exactly in memory, and the
 * other instances' shares as last read from the database.
 */
export class QuotaCounter {
  /** This instance's share: every call it let through and did not refund. */
  mine = 0;
  /** The value of `mine` the database holds (or is being sent), so a flush skips unchanged counters. */
  private persisted = 0;
  private seq = 0;
  /** Other instances' shares by instance id, with the write sequence they were read at. */
  private readonly others = new Map<string, { count: number; seq: number }>();
  private othersTotal = 0;
  /** Epoch ms of the last call, so idle counters can be forgotten. */
  lastUsedMs: number;
  /** This instance's writes not yet old enough to be sure every other instance has read them. */
  private readonly recentWrites: Array<{ count: number; doneMs: number }> = [];
  /** Of `mine`, the part every other instance has read by now (written at least a horizon ago). */
  private seenCount = 0;

  constructor(
    readonly key: string,
    readonly windowEnd: Date,
    nowMs: number,
  ) {
    this.lastUsedMs = nowMs;
  }

  /** The counter's total as this instance sees it. */
  total(): number {
    return this.othersTotal + this.mine;
  }

  /**
   * Takes in another instance's share. Absolute values with a sequence make this idempotent and
   * order-free: a share read twice, or an older read arriving after a newer one, changes nothing.
   */
  apply(share: ShareRead, selfId: string): void {
    if (share.instance === selfId) return;
    const known = this.others.get(share.instance);
    if (known && known.seq > share.seq) return;
    this.othersTotal += share.count - (known?.count ?? 0);
    this.others.set(share.instance, { count: share.count, seq: share.seq });
  }

  /**
   * Takes back this instance's own stored share when a counter it forgot (idle) is loaded again;
   * only before the first call of this load, when `mine` is still 0.
   */
  adoptOwn(share: ShareRead): void {
    this.mine = share.count;
    this.persisted = share.count;
    this.seenCount = share.count;
    this.seq = Math.max(this.seq, share.seq);
  }

  get dirty(): boolean {
    return this.mine !== this.persisted;
  }

  /** The write that brings the database up to date, or nothing when it is. */
  pendingWrite(): ShareWrite | undefined {
    if (!this.dirty) return undefined;
    this.seq += 1;
    return { key: this.key, count: this.mine, seq: this.seq, windowEndsAt: this.windowEnd };
  }

  /** The database now holds `count` (the write of `pendingWrite` succeeded at `doneMs`). */
  persistedAs(count: number, doneMs: number): void {
    this.persisted = count;
    this.recentWrites.push({ count, doneMs });
  }

  /**
   * Calls of this instance that another instance may not have seen yet: those counted after the
   * last write that finished at least `horizonMs` ago (by then every instance has read it, as each
   * reads once per sync interval).
   */
  unseen(nowMs: number, horizonMs: number): number {
    while (this.recentWrites.length > 0 && this.recentWrites[0]!.doneMs <= nowMs - horizonMs) this.seenCount = this.recentWrites.shift()!.count;
    return Math.max(0, this.mine - this.seenCount);
  }
}
