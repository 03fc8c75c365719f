import type { AccountStats } from '../domain/webhook-stats.js';

/**
 * Where each notifier instance (a "writer": one per process start) keeps its statistics, one document
 * per account it touched. Each document has a single writer, so a write is a plain replace: no
 * increment has to be atomic, which FerretDB would not guarantee.
 */
export interface WebhookStatsStore {
  /** Records the writer as alive at `at` (its last flush): readers look for its documents. */
  touchWriter(writerId: string, at: Date): Promise<void>;
  /** Writes the writer's current statistics of these accounts, replacing what it wrote before. */
  save(writerId: string, stats: readonly AccountStats[]): Promise<void>;
  /** Writers that wrote since `since`. */
  writers(since: Date): Promise<string[]>;
  /** The statistics the given writers keep of the account (one _id lookup each). */
  load(accountId: string, writerIds: readonly string[]): Promise<AccountStats[]>;
  /** Removes writers, and their documents, that have not written since `before`; how many writers. */
  removeWritersBefore(before: Date): Promise<number>;
}
