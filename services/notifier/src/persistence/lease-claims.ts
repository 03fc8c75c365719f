import type { Collection, Db } from 'mongodb';
import type { QueueEntry } from '../ports/delivery-store.js';
import { attemptKey } from './attempt-document.js';
import { COLLECTIONS } from './collections.js';
import { insertEach } from './insert-each.js';
import type { WriteGate } from './write-gate.js';

/** A claim of one attempt number of one delivery; its key is unique, so exactly one claimer gets it. */
export interface LeaseDocument {
  _id: string;
  deliveryId: string;
  attempt: number;
  owner: string;
  claimedAt: Date;
  leaseUntil: Date;
}

/** Expired holders taken over per entry and claim round before the entry is left for the next round. */
const MAX_TAKEOVER_STEPS = 3;

interface Try {
  entry: QueueEntry;
  attempt: number;
  takeover: boolean;
}

/**
 * Claims attempts with unique inserts, the one operation that is atomic on every database the
 * product runs on (FerretDB handed one document to 14 racing `findOneAndUpdate`s; measured). Claiming
 * attempt n of delivery d is inserting `d#n`: a duplicate key means another claimer has it. When that
 * holder's lease ran out (it died mid-attempt), the attempt counts as made and lost, and the claimer
 * tries n+1; so every claim, takeovers included, has a number nobody else can hold. One insertMany
 * per round claims a whole batch. Lease documents are never deleted on the hot path: a deleted key
 * could be claimed again by a claimer that read the queue before the delivery finished.
 */
export class LeaseClaims {
  private readonly leases: Collection<LeaseDocument>;

  constructor(
    db: Db,
    private readonly gate: WriteGate,
  ) {
    this.leases = db.collection<LeaseDocument>(COLLECTIONS.leases);
  }

  async claim(entries: readonly QueueEntry[], owner: string, now: Date, leaseUntil: Date): Promise<{ entry: QueueEntry; takeover: boolean }[]> {
    // An entry still carrying its accepting instance's hold (expired, or findDue would not return it)
    // had that attempt made or lost: the next claim takes the number after it.
    let tries: Try[] = entries.map((entry) =>
      entry.leaseUntil ? { entry, attempt: entry.attempt + 1, takeover: true } : { entry, attempt: entry.attempt, takeover: false },
    );
    const won: { entry: QueueEntry; takeover: boolean }[] = [];
    for (let step = 0; step <= MAX_TAKEOVER_STEPS && tries.length > 0; step++) {
      const docs = tries.map((t) => ({
        _id: attemptKey(t.entry.deliveryId, t.attempt),
        deliveryId: t.entry.deliveryId,
        attempt: t.attempt,
        owner,
        claimedAt: now,
        leaseUntil,
      }));
      const results = await this.gate.run(() => insertEach(this.leases, docs));
      const lost: Try[] = [];
      tries.forEach((t, i) => {
        if (results[i] === 'inserted') won.push({ entry: { ...t.entry, attempt: t.attempt, leaseOwner: owner, leaseUntil }, takeover: t.takeover });
        else lost.push(t);
      });
      // A holder claimed its number after the entry fell due, so it cannot have run out of lease while
      // the entry has been due for less than a lease: a lost race, nothing to look up.
      const suspects = lost.filter(
        (t) => now.getTime() - Math.max(t.entry.dueAt.getTime(), t.entry.leaseUntil?.getTime() ?? 0) >= leaseUntil.getTime() - now.getTime(),
      );
      if (suspects.length === 0 || step === MAX_TAKEOVER_STEPS) break;
      // Rare path (a holder that may have died): look at each holder by key.
      const holders = await Promise.all(suspects.map((t) => this.leases.findOne({ _id: attemptKey(t.entry.deliveryId, t.attempt) })));
      tries = suspects
        .filter((_, i) => {
          const holder = holders[i];
          return holder !== null && holder !== undefined && holder.leaseUntil <= now;
        })
        .map((t) => ({ ...t, attempt: t.attempt + 1, takeover: true }));
    }
    return won;
  }

  /** The live claim of `deliveryId`'s attempt `attempt` or the one after (a takeover), if any. */
  async live(deliveryId: string, attempt: number, now: Date): Promise<LeaseDocument | null> {
    const found = await Promise.all([attempt, attempt + 1].map((n) => this.leases.findOne({ _id: attemptKey(deliveryId, n) })));
    return found.find((l): l is LeaseDocument => l !== null && l.leaseUntil > now) ?? null;
  }
}
