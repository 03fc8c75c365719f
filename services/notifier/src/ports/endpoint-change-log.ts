/** One change to a stored webhook endpoint, numbered in the order the changes were recorded. */
export interface EndpointChange {
  seq: number;
  endpointId: string;
  accountId: string;
  at: Date;
}

/**
 * The record of endpoint writes that every notifier instance follows, so each keeps its endpoints in
 * memory and reads one again only when it changed (EndpointChangeWatcher), not on a timer per account.
 */
export interface EndpointChangeLog {
  /**
   * Records that the endpoint was written, under the next free number. Never rejects: a change it
   * could not record reaches the other instances through their periodic refresh instead.
   */
  record(change: { endpointId: string; accountId: string }, at: Date): Promise<void>;
  /** The change numbered `seq`, or null when there is none (yet). */
  read(seq: number): Promise<EndpointChange | null>;
  /** The highest number recorded so far, 0 when none. */
  head(): Promise<number>;
}
