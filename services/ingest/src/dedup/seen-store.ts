import type { FeedKind } from '../domain/normalised.js';
import type { SeenEntry } from './decide.js';

export interface SeenKey {
  feed: FeedKind;
  sourceId: string;
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
  find(key: SeenKey): Promise<SeenRecord | null>;
  /** Creates the entry; false when one already exists for the key. */
  insert(key: SeenKey, record: SeenRecord): Promise<boolean>;
  /** Replaces the entry if its revision is still `expectedRevision`; false when someone moved it. */
  replace(key: SeenKey, expectedRevision: number, record: SeenRecord): Promise<boolean>;
  /** Deletes entries whose event time is before `epochMs`; returns how many. */
  purgeBefore(epochMs: number): Promise<number>;
}
