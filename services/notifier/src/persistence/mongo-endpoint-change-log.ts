import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError } from '@stormhook/mongo';
import type { Logger } from '@stormhook/logger';
import type { EndpointChange, EndpointChangeLog } from '../ports/endpoint-change-log.js';
import { COLLECTIONS } from './collections.js';

interface ChangeDocument {
  /** The number as text, zero-padded (so text order is number order). */
  _id: string;
  endpointId: string;
  accountId: string;
  at: Date;
}

/**
 * The `_id` of change `seq`. Text, not a number: FerretDB 1.x on SQLite answers `_id` equality from
 * its index for strings only; a number `_id` scans the collection (a miss, the watcher's usual look,
 * cost 82 ms of its CPU at 1,500 documents and 820 ms at 15,000; a text one about 1 ms at either).
 */
const idOf = (seq: number): string => String(seq).padStart(15, '0');

/** Numbers tried past the known head before reading the head again (writers racing for the next one). */
const MAX_TRIES = 50;

/**
 * The endpoint change log as documents numbered 1, 2, 3...: a writer takes the next number with a
 * unique insert (the one atomic write FerretDB has), so two instances never record under one number
 * and no number is skipped; a reader follows it with `_id` lookups only, the one read FerretDB 1.x
 * answers from its index (about 1 ms of its CPU each; a filter on any other field scans).
 */
export class MongoEndpointChangeLog implements EndpointChangeLog {
  private readonly collection: Collection<ChangeDocument>;
  /** The highest number known to exist: where the next record starts trying. */
  private known: number | undefined;
  /** This process's records, one at a time: concurrent ones would all race for the same next number. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    db: Db,
    private readonly logger: Logger,
  ) {
    this.collection = db.collection<ChangeDocument>(COLLECTIONS.endpointChanges);
  }

  record(change: { endpointId: string; accountId: string }, at: Date): Promise<void> {
    const turn = this.queue.then(() => this.recordNow(change, at));
    this.queue = turn;
    return turn;
  }

  private async recordNow(change: { endpointId: string; accountId: string }, at: Date): Promise<void> {
    try {
      for (let round = 0; round < 3; round++) {
        let seq = (this.known ?? (await this.head())) + 1;
        for (let tries = 0; tries < MAX_TRIES; tries++, seq++) {
          try {
            await this.collection.insertOne({ _id: idOf(seq), endpointId: change.endpointId, accountId: change.accountId, at });
            this.saw(seq);
            return;
          } catch (error) {
            if (!isDuplicateKeyError(error)) throw error;
            this.saw(seq);
          }
        }
        this.known = undefined; // far behind: read the head again
      }
      throw new Error(`no free change number after ${3 * MAX_TRIES} tries`);
    } catch (error) {
      this.logger.warn({ err: error, endpointId: change.endpointId }, 'endpoint change not recorded; other instances see it at their next refresh');
    }
  }

  async read(seq: number): Promise<EndpointChange | null> {
    const doc = await this.collection.findOne({ _id: idOf(seq) });
    if (!doc) return null;
    this.saw(seq);
    return { seq, endpointId: doc.endpointId, accountId: doc.accountId, at: doc.at };
  }

  async head(): Promise<number> {
    // A sort scans on FerretDB 1.x: read at start and after races only, over a log the janitor trims.
    const [last] = await this.collection
      .find({}, { projection: { _id: 1 } })
      .sort({ _id: -1 })
      .limit(1)
      .toArray();
    const head = last ? Number(last._id) : 0;
    this.saw(head);
    return head;
  }

  private saw(seq: number): void {
    this.known = Math.max(this.known ?? 0, seq);
  }
}
