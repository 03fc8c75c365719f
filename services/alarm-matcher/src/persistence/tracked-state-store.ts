import type { Collection, Db } from 'mongodb';
import type { StoredTrackedState, TrackedKind, TrackedStateStore } from '../ports/tracked-state-store.js';
import { isOpen } from '../lifecycle/tracked-event.js';
import { COLLECTIONS } from './collections.js';

/**
 * One document per event: the hot path reads it by _id (the lookup FerretDB answers from its index)
 * and replaces it whole. Writes to one event come from the consumer owning its partition, one
 * revision at a time; the notification ledger guards against the rare overlap during a rebalance.
 */
interface EventDocument {
  _id: string;
  kind: TrackedKind;
  states: StoredTrackedState[];
  /** Open states (active, or approaching: both end on expiry), and the earliest expiry among them (for the sweeper's query). */
  activeCount: number;
  nextExpiryMs: number | null;
  updatedAtMs: number;
}

export class MongoTrackedStateStore implements TrackedStateStore {
  private readonly collection: Collection<EventDocument>;

  constructor(db: Db) {
    this.collection = db.collection<EventDocument>(COLLECTIONS.trackedStates);
  }

  async byEvent(eventId: string): Promise<Map<string, StoredTrackedState>> {
    const doc = await this.collection.findOne({ _id: eventId });
    return new Map((doc?.states ?? []).map((state) => [state.registrationId, state]));
  }

  async saveEvent(eventId: string, kind: TrackedKind, states: readonly StoredTrackedState[], nowMs: number): Promise<void> {
    const active = states.filter(isOpen);
    const doc: EventDocument = {
      _id: eventId,
      kind,
      states: JSON.parse(JSON.stringify(states)) as StoredTrackedState[],
      activeCount: active.length,
      nextExpiryMs: active.length > 0 ? Math.min(...active.map((s) => s.expiresAtMs)) : null,
      updatedAtMs: nowMs,
    };
    await this.collection.replaceOne({ _id: eventId }, doc, { upsert: true });
  }

  async expired(nowMs: number, limit: number): Promise<Array<{ eventId: string; kind: TrackedKind; states: StoredTrackedState[] }>> {
    const docs = await this.collection
      .find({ activeCount: { $gt: 0 }, nextExpiryMs: { $lte: nowMs } })
      .limit(limit)
      .toArray();
    return docs.map((doc) => ({ eventId: doc._id, kind: doc.kind, states: doc.states }));
  }

  async purgeEndedBefore(ms: number): Promise<number> {
    return (await this.collection.deleteMany({ activeCount: 0, updatedAtMs: { $lt: ms } })).deletedCount;
  }
}
