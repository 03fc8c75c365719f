import type { FeedKind } from '../domain/normalised.js';
import type { SeenEntry } from './decide.js';

export interface SeenKey {
  feed: FeedKind;
  sourceId: string;
}

/** The one spelling of a key as text: `<feed>:<source id>` (the database `_id`, the cache key). */
export function seenKeyId(key: SeenKey): string {
  return `${key.feed}:${key.sourceId}`;
}

/** A full entry as written: the decision view plus what the clean-up needs. */
export interface SeenRecord extends SeenEntry {
  /** Time of the weather the record describes; entries older than the accepted age are purged. */
  eventTimeEpochMs: number;
}

/**
 * Port: ingest's memory of which source records it has published, in which revision and with which
 * content. Writes are conditional so that two consumers racing on one source id (a rebalance, a
 * publisher keying badly) cannot both win: the loser sees `false` and decides again.
 */
export interface SeenStore {
  /**
   * The entry of `key`, or null. `eventTimeEpochMs`, the time of the record being decided, lets a
   * store that keeps recent entries in memory know when a key it does not hold cannot exist.
   */
  find(key: SeenKey, eventTimeEpochMs?: number): Promise<SeenRecord | null>;
  /** Creates the entry; false when one already exists for the key. */
  insert(key: SeenKey, record: SeenRecord): Promise<boolean>;
  /** Replaces the entry if its revision is still `expectedRevision`; false when someone moved it. */
  replace(key: SeenKey, expectedRevision: number, record: SeenRecord): Promise<boolean>;
  /** Deletes entries whose event time is before `epochMs`; returns how many. */
  purgeBefore(epochMs: number): Promise<number>;
}

/**
 * The batch form of the store, behind the batching decorator: the records in flight share round
 * trips. Same conditional semantics as the single operations.
 */
export interface BatchSeenStore extends SeenStore {
  /** The entry of each key, in the keys' order; null where there is none. */
  findMany(keys: readonly SeenKey[]): Promise<Array<SeenRecord | null>>;
  /** Creates the entries in one unordered write; per item, false when one already existed for its key. */
  insertMany(items: ReadonlyArray<{ key: SeenKey; record: SeenRecord }>): Promise<boolean[]>;
  /** Every entry of `feed` whose event time is at or after `epochMs` (one read, at start or rebalance). */
  findSince(feed: FeedKind, epochMs: number): Promise<Array<{ key: SeenKey; record: SeenRecord }>>;
}
