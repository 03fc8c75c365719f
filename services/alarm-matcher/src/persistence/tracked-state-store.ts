import type { Collection, Db } from 'mongodb';
import type { LastRevision, StoredTrackedState, TrackedKind } from '../lifecycle/stored-tracked-state.js';
import type { TrackedStateStore } from '../ports/tracked-state-store.js';
import { isOpen } from '../lifecycle/tracked-event.js';
import { COLLECTIONS } from './collections.js';

/**
 * One document per event: the hot path reads it by _id (the lookup FerretDB answers from its index)
 * and replaces it whole. Writes to one event come from the consumer owning its partition, one
 * revision at a time; the notification ledger guards against the rare overlap during a rebalance.
 * The states travel as one JSON text: a storm over a city concerns thousands of registrations, and
 * FerretDB converts every sub-document field by field (10,000 states as sub-documents took seconds
 * per revision; as text, one value).
 */
interface EventDocument {
  _id: string;
  kind: TrackedKind;
  statesJson?: string;
  /** The form written before the states became text; still read. */
  states?: StoredTrackedState[];
  /**
   * The last revision as JSON text (kept from the previous write when a write brings none, e.g. the
   * sweeper's): FerretDB 1.x refuses nested arrays, and every outline is arrays of [lng, lat] arrays.
   */
  lastJson?: string;
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
    return new Map(statesOf(doc).map((state) => [state.registrationId, state]));
  }

  async saveEvent(eventId: string, kind: TrackedKind, states: readonly StoredTrackedState[], nowMs: number, last?: LastRevision): Promise<void> {
    let open = 0;
    let nextExpiryMs = Infinity;
    for (const state of states) {
      if (!isOpen(state)) continue;
      open++;
      nextExpiryMs = Math.min(nextExpiryMs, state.expiresAtMs);
    }
    const kept = last ? JSON.stringify(last) : (await this.collection.findOne({ _id: eventId }, { projection: { lastJson: 1 } }))?.lastJson;
    const doc: EventDocument = {
      _id: eventId,
      kind,
      statesJson: JSON.stringify(states),
      ...(kept ? { lastJson: kept } : {}),
      activeCount: open,
      nextExpiryMs: open > 0 ? nextExpiryMs : null,
      updatedAtMs: nowMs,
    };
    await this.collection.replaceOne({ _id: eventId }, doc, { upsert: true });
  }

  async expired(nowMs: number, limit: number): Promise<Array<{ eventId: string; kind: TrackedKind; states: StoredTrackedState[]; last?: LastRevision }>> {
    const docs = await this.collection
      .find({ activeCount: { $gt: 0 }, nextExpiryMs: { $lte: nowMs } })
      .limit(limit)
      .toArray();
    return docs.map((doc) => ({
      eventId: doc._id,
      kind: doc.kind,
      states: statesOf(doc),
      ...(doc.lastJson ? { last: JSON.parse(doc.lastJson) as LastRevision } : {}),
    }));
  }

  async purgeEndedBefore(ms: number): Promise<number> {
    return (await this.collection.deleteMany({ activeCount: 0, updatedAtMs: { $lt: ms } })).deletedCount;
  }
}

function statesOf(doc: EventDocument | null): StoredTrackedState[] {
  if (!doc) return [];
  return doc.statesJson !== undefined ? (JSON.parse(doc.statesJson) as StoredTrackedState[]) : (doc.states ?? []);
}
