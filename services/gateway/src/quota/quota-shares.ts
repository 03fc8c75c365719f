/**
 * The port through which the meter persists and reads counter shares. A share is one gateway
 * instance's count of one counter; the counter's total is the sum of every instance's share.
 */

/** One share as this instance writes it: the absolute count, never a delta. */
export interface ShareWrite {
  /** The counter: `<accountId>|<service>|<window start epoch ms>`. */
  key: string;
  count: number;
  /** Increases with every write of this share, so readers keep the newest value whatever the order they see them in. */
  seq: number;
  windowEndsAt: Date;
}

/** One share as stored, of any instance. */
export interface ShareRead {
  key: string;
  instance: string;
  count: number;
  seq: number;
  /** When the counter's window ends (a meter that learns counters from reads creates them from it). */
  windowEndsAt?: Date;
}

export interface QuotaShares {
  /** This instance's id: it writes only its own shares. */
  readonly instanceId: string;
  /** Writes this instance's shares, one write per share, all in one round trip. */
  write(shares: readonly ShareWrite[], at: Date): Promise<void>;
  /** Every stored share of one counter (this instance's past lives and dead instances included). */
  sharesOf(key: string): Promise<ShareRead[]>;
  /** The shares of any counter written at or after `since`, in one query. */
  changedSince(since: Date): Promise<ShareRead[]>;
  /** Deletes shares of windows that ended before `before`; how many. */
  purgeEnded(before: Date): Promise<number>;
}
