import type { Collection, Db, Filter } from 'mongodb';
import { MicroBatcher } from '@stormhook/batch';
import type { Delivery, FailureReason } from '../domain/delivery.js';
import { foldDelivery, type LoggedAttempt } from '../domain/delivery-state.js';
import type { FailureClass } from '../domain/failure-class.js';
import {
  OUTBOX_DUE_AT,
  type ClaimRequest,
  type DeliveryListFilter,
  type DeliveryListPage,
  type DeliveryPosition,
  type DeliveryStore,
  type EventKey,
  type RecoveryCandidate,
  type DueQuery,
  type HeldAttempt,
  type HeldDelivery,
  type Hold,
  type QueueEntry,
} from '../ports/delivery-store.js';
import { attemptKey, fromAttemptDocument, toAttemptDocument, type AttemptDocument } from './attempt-document.js';
import { COLLECTIONS } from './collections.js';
import { fromQueueDocument, storedDelivery, toDeliveryDocument, toQueueDocument, type DeliveryDocument, type QueueDocument } from './delivery-document.js';
import { fromHoldDocument, toHoldDocument, type HoldDocument } from './hold-document.js';
import { insertEach, type InsertResult } from './insert-each.js';
import { LeaseClaims } from './lease-claims.js';
import { WriteGate } from './write-gate.js';

/** The list view leaves out the two big fields. */
const LIST_PROJECTION = { attempts: 0, payload: 0 } as const;
/** What a recovery chooses by (`packed` holds most of it in documents of the packed form). */
const CANDIDATE_PROJECTION = {
  _id: 1,
  packed: 1,
  accountId: 1,
  endpointId: 1,
  registrationId: 1,
  eventId: 1,
  callbackType: 1,
  status: 1,
  test: 1,
  attemptCount: 1,
  stateAttempt: 1,
  createdAt: 1,
  occurredAt: 1,
} as const;
/**
 * Queue entries a recovery writes per bulk write. Small, and each waits its turn at the write gate:
 * the embedded database has one writer, and a 500-entry write held live deliveries back for a second
 * (webhook-health-bench), where 50 hold them back for tens of milliseconds.
 */
const RECOVERY_WRITE_BATCH = 50;

const eventKeyOf = (event: EventKey): string => `${event.registrationId}|${event.eventId}`;

/** Whether the delivery comes after `position` in the newest-first order (created earlier, or at once with a smaller id). */
const isAfter = (delivery: Delivery, position: DeliveryPosition): boolean =>
  delivery.createdAt < position.createdAt || (delivery.createdAt.getTime() === position.createdAt.getTime() && delivery.id < position.id);

/** Attempt keys read at once when a delivery's log is read back by key (see attemptsOf). */
const PROBE_WINDOW = 8;
/** Keys missing in a row after which the log is taken to end (a gap is an attempt lost in a crash). */
const PROBE_GAP = 4;

const leaseFree = (now: Date): Filter<QueueDocument> => ({ $or: [{ leaseUntil: null }, { leaseUntil: { $lt: now } }] });

export interface DeliveryStoreOptions {
  /** 1 for the embedded FerretDB (SQLite has one writer); more on MongoDB. Ignored when `gate` is given. */
  maxConcurrentWrites?: number;
  /**
   * The process's write gate, shared with every other writer of the same database (the webhook
   * statistics): two gates would let two writes overlap on SQLite's single writer.
   */
  gate?: WriteGate;
  /** Documents per batched write (insertMany / deleteMany). */
  batchMaxItems?: number;
  /** How long the first item of a batch waits for others, in milliseconds. */
  batchMaxDelayMs?: number;
}

/**
 * Deliveries, their work queue, the append-only attempt log and the attempt claims, in MongoDB or
 * FerretDB. The hot path writes only batched inserts and deletes: acceptance inserts the delivery
 * and its queue entry, an attempt appends its log entry (with the state it left), a finished delivery
 * leaves the queue. Updates, which cost a whole read-modify-write each on FerretDB, are left to the
 * rare paths (a retry rescheduled, a death, a manual redelivery). Reads use `_id` only wherever
 * they are frequent: that is the one filter FerretDB on SQLite answers from an index.
 */
export class MongoDeliveryStore implements DeliveryStore {
  private readonly deliveries: Collection<DeliveryDocument>;
  private readonly queue: Collection<QueueDocument>;
  private readonly attempts: Collection<AttemptDocument>;
  private readonly gate: WriteGate;
  private readonly claims: LeaseClaims;
  private readonly deliveryInserts: MicroBatcher<DeliveryDocument, InsertResult>;
  private readonly queueInserts: MicroBatcher<QueueDocument, InsertResult>;
  private readonly attemptInserts: MicroBatcher<AttemptDocument, InsertResult>;
  private readonly dequeues: MicroBatcher<HeldAttempt, void>;
  private readonly holds: Collection<HoldDocument>;
  private readonly holdInserts: MicroBatcher<{ delivery: HeldDelivery; owner: string; leaseUntil: Date }, { holdId: string; size: number }>;
  private holdSeq = 0;
  private readonly writing = new Map<string, Promise<unknown>>();

  constructor(db: Db, { maxConcurrentWrites = 1, gate, batchMaxItems = 500, batchMaxDelayMs = 5 }: DeliveryStoreOptions = {}) {
    this.deliveries = db.collection<DeliveryDocument>(COLLECTIONS.deliveries);
    this.queue = db.collection<QueueDocument>(COLLECTIONS.queue);
    this.attempts = db.collection<AttemptDocument>(COLLECTIONS.attempts);
    this.gate = gate ?? new WriteGate(maxConcurrentWrites);
    this.claims = new LeaseClaims(db, this.gate);
    const batch = { maxItems: batchMaxItems, maxDelayMs: batchMaxDelayMs };
    const inserts = <T extends { _id: string }>(collection: Collection<T>) =>
      new MicroBatcher<T, InsertResult>({ ...batch, flush: (docs) => this.gate.run(() => insertEach(collection, docs)) });
    this.deliveryInserts = inserts(this.deliveries);
    this.queueInserts = inserts(this.queue);
    this.attemptInserts = inserts(this.attempts);
    // Queue entries are removed by key, one statement each: a deleteMany on `_id $in` scans the whole
    // queue on FerretDB (its cost grows with a dead endpoint's backlog). Only slow-path work (retries,
    // overflow, manual) has queue entries, so these are few; chunks stay far below the statement
    // count that stalled FerretDB.
    this.dequeues = new MicroBatcher<HeldAttempt, void>({
      maxItems: Math.min(batchMaxItems, 50),
      maxDelayMs: batchMaxDelayMs,
      flush: async (entries) => {
        const latest = new Map<string, number>();
        for (const { deliveryId, attempt } of entries) latest.set(deliveryId, Math.max(attempt, latest.get(deliveryId) ?? 0));
        const deletes = [...latest].map(([id, attempt]) => ({ deleteOne: { filter: { _id: id, ...fencedBy(attempt) } } }));
        await this.gate.run(() => this.queue.bulkWrite(deletes, { ordered: false }));
        return entries.map(() => undefined);
      },
    });
    this.holds = db.collection<HoldDocument>(COLLECTIONS.holds);
    this.holdInserts = new MicroBatcher({
      ...batch,
      flush: async (items) => {
        // One hold per owner and batch (instances sharing a store in tests have one each).
        const byOwner = new Map<string, { id: string; leaseUntil: Date; deliveries: HeldDelivery[] }>();
        const ids = items.map((item) => {
          let hold = byOwner.get(item.owner);
          if (!hold) {
            hold = { id: `${item.owner}#${Date.now().toString(36)}#${(this.holdSeq++).toString(36)}`, leaseUntil: item.leaseUntil, deliveries: [] };
            byOwner.set(item.owner, hold);
          }
          if (item.leaseUntil > hold.leaseUntil) hold.leaseUntil = item.leaseUntil;
          hold.deliveries.push(item.delivery);
          return hold.id;
        });
        const docs = [...byOwner].map(([owner, hold]) => toHoldDocument(hold.id, owner, hold.leaseUntil, hold.deliveries));
        await this.gate.run(() => this.holds.insertMany(docs));
        const sizes = new Map([...byOwner.values()].map((hold) => [hold.id, hold.deliveries.length]));
        return ids.map((holdId) => ({ holdId, size: sizes.get(holdId) ?? 0 }));
      },
    });
  }

  hold(delivery: HeldDelivery, owner: string, leaseUntil: Date): Promise<{ holdId: string; size: number }> {
    return this.holdInserts.add({ delivery, owner, leaseUntil });
  }

  async releaseHold(holdId: string): Promise<void> {
    await this.gate.run(() => this.holds.deleteOne({ _id: holdId }));
  }

  async expiredHolds(now: Date, limit: number): Promise<Hold[]> {
    const docs = await this.holds
      .find({ leaseUntil: { $lt: now } })
      .limit(limit)
      .toArray();
    return docs.map(fromHoldDocument);
  }

  insert(delivery: Delivery): Promise<InsertResult> {
    return this.deliveryInserts.add(toDeliveryDocument(delivery));
  }

  enqueue(entry: QueueEntry): Promise<InsertResult> {
    return this.queueInserts.add(toQueueDocument(entry));
  }

  async replaceQueueEntry(entry: QueueEntry): Promise<void> {
    const { _id, ...rest } = toQueueDocument(entry);
    await this.gate.run(() => this.queue.replaceOne({ _id }, rest, { upsert: true }));
  }

  async get(deliveryId: string): Promise<Delivery | null> {
    const doc = await this.deliveries.findOne({ _id: deliveryId });
    if (!doc) return null;
    const stored = storedDelivery(doc);
    return foldDelivery(stored, await this.attemptsOf(deliveryId, stored.stateAttempt));
  }

  async getQueueEntry(deliveryId: string): Promise<QueueEntry | null> {
    const doc = await this.queue.findOne({ _id: deliveryId });
    if (!doc) return null;
    const entry = fromQueueDocument(doc);
    if (entry.leaseUntil || entry.outbox) return entry;
    const lease = await this.claims.live(deliveryId, entry.attempt, new Date());
    return lease ? { ...entry, leaseOwner: lease.owner, leaseUntil: lease.leaseUntil } : entry;
  }

  async findDue({ now, limit, excludeEndpoints }: DueQuery): Promise<QueueEntry[]> {
    const filter: Filter<QueueDocument> = { dueAt: { $lte: now }, outbox: false, ...leaseFree(now) };
    if (excludeEndpoints.length > 0) filter.endpointId = { $nin: [...excludeEndpoints] };
    const docs = await this.queue.find(filter).sort({ dueAt: 1 }).limit(limit).toArray();
    return docs.map(fromQueueDocument);
  }

  async claim({ entries, owner, now, leaseUntil }: ClaimRequest): Promise<QueueEntry[]> {
    if (entries.length === 0) return [];
    const won = await this.claims.claim(entries, owner, now, leaseUntil);
    // A takeover trusts a read that may be old: make sure the delivery was not finished or rescheduled
    // meanwhile by a holder that was only slow (rare path: one read by key per takeover).
    const checked = await Promise.all(
      won.map(async ({ entry, takeover }) => {
        if (!takeover) return entry;
        const current = await this.queue.findOne({ _id: entry.deliveryId });
        const fresh = current ? fromQueueDocument(current) : null;
        return fresh && !fresh.outbox && fresh.dueAt <= now && fresh.attempt <= entry.attempt
          ? { ...entry, trigger: fresh.trigger, single: fresh.single, manualAttempts: fresh.manualAttempts }
          : null;
      }),
    );
    return checked.filter((e): e is QueueEntry => e !== null);
  }

  async recordAttempt(deliveryId: string, accountId: string, logged: LoggedAttempt): Promise<void> {
    // A duplicate is this very attempt written by an earlier try of the same batch.
    await this.attemptInserts.add(toAttemptDocument(deliveryId, accountId, logged));
  }

  async reschedule(deliveryId: string, heldAttempt: number, dueAt: Date): Promise<void> {
    const $set = { dueAt, nextAttempt: heldAttempt + 1, leaseOwner: null, leaseUntil: null, trigger: 'scheduled' as const };
    await this.gate.run(() => this.queue.updateOne({ _id: deliveryId, ...fencedBy(heldAttempt) }, { $set }));
  }

  async dequeue(entries: readonly HeldAttempt[]): Promise<void> {
    await Promise.all(entries.map((entry) => this.dequeues.add(entry)));
  }

  async parkForOutbox(deliveryId: string, heldAttempt: number): Promise<void> {
    await this.gate.run(() =>
      this.queue.updateOne({ _id: deliveryId, ...fencedBy(heldAttempt) }, { $set: { outbox: true, dueAt: OUTBOX_DUE_AT, leaseOwner: null, leaseUntil: null } }),
    );
  }

  async pendingFailureEvents(limit: number): Promise<Delivery[]> {
    const markers = await this.queue
      .find({ outbox: true }, { projection: { _id: 1 } })
      .limit(limit)
      .toArray();
    const deliveries = await Promise.all(markers.map((m) => this.get(m._id)));
    const owed: Delivery[] = [];
    for (const [i, delivery] of deliveries.entries()) {
      if (delivery?.failureEventPending) owed.push(delivery);
      else await this.gate.run(() => this.queue.deleteOne({ _id: (markers[i] as { _id: string })._id })); // published already
    }
    return owed;
  }

  async markFailureEventPublished(deliveryId: string): Promise<void> {
    await this.writeState(deliveryId, () => ({ failureEventPending: false }));
    await this.gate.run(() => this.queue.deleteOne({ _id: deliveryId, outbox: true }));
  }

  async expedite(deliveryId: string, at: Date): Promise<boolean> {
    const result = await this.gate.run(() =>
      this.queue.updateOne({ _id: deliveryId, outbox: false }, { $set: { dueAt: at, trigger: 'manual' }, $inc: { manualAttempts: 1 } }),
    );
    return result.matchedCount > 0;
  }

  async markDead(deliveryId: string, reason: FailureReason, error: string, at: Date, claimedAttempt: number): Promise<void> {
    await this.writeState(
      deliveryId,
      () => ({ status: 'dead', failureReason: reason, lastError: error, finishedAt: at, updatedAt: at, nextAttemptAt: null, failureEventPending: true }),
      claimedAttempt,
    );
  }

  async claimManualRedelivery(deliveryId: string, max: number): Promise<boolean> {
    // Serialised per delivery in this process: a filter-then-increment is no compare-and-set on FerretDB.
    return this.serial(deliveryId, async () => {
      const result = await this.gate.run(() =>
        this.deliveries.updateOne(
          { _id: deliveryId, $or: [{ manualRedeliveries: { $exists: false } }, { manualRedeliveries: { $lt: max } }] },
          { $inc: { manualRedeliveries: 1 } },
        ),
      );
      return result.modifiedCount > 0;
    });
  }

  async reopen(deliveryId: string, at: Date): Promise<void> {
    await this.writeState(deliveryId, () => ({ status: 'pending', nextAttemptAt: at, finishedAt: null, updatedAt: at }));
  }

  async list(filter: DeliveryListFilter): Promise<DeliveryListPage> {
    const query: Filter<DeliveryDocument> = { accountId: filter.accountId };
    if (filter.registrationId) query.registrationId = filter.registrationId;
    if (filter.callbackType) query.callbackType = filter.callbackType as DeliveryDocument['callbackType'];
    if (filter.from || filter.to) {
      query.createdAt = { ...(filter.from ? { $gte: filter.from } : {}), ...(filter.to ? { $lt: filter.to } : {}) };
    }
    const newestFirst = { createdAt: -1, _id: -1 } as const;
    const skip = filter.pageNumber * filter.pageSize;
    const { after } = filter;
    if (!filter.status && !filter.failureClass) {
      const paged: Filter<DeliveryDocument> = after
        ? { ...query, $or: [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, _id: { $lt: after.id } }] }
        : query;
      const [docs, total] = await Promise.all([
        this.deliveries
          .find(paged, { projection: LIST_PROJECTION })
          .sort(newestFirst)
          .skip(skip)
          .limit(filter.pageSize + 1)
          .toArray(),
        this.deliveries.countDocuments(query),
      ]);
      const page = docs.slice(0, filter.pageSize);
      const logs = await this.loggedFor({ deliveryId: { $in: page.map((d) => d._id) } });
      return { items: page.map((doc) => this.listItem(doc, logs)), total, more: docs.length > filter.pageSize };
    }
    // The status and the last failure live in the attempt log as much as in the delivery document, so
    // these filters apply after folding the two. Costs a read of the account's log (MongoDB: its
    // accountId index).
    const [docs, logs] = await Promise.all([
      this.deliveries.find(query, { projection: LIST_PROJECTION }).sort(newestFirst).toArray(),
      this.loggedFor({ accountId: filter.accountId }),
    ]);
    const wanted = filter.status === 'in-flight' ? 'pending' : filter.status;
    const matching = docs
      .map((doc) => this.listItem(doc, logs))
      .filter((d) => (!wanted || d.status === wanted) && (!filter.failureClass || d.lastFailureClass === filter.failureClass));
    const start = after ? matching.findIndex((d) => isAfter(d, after)) : skip;
    const from = start < 0 ? matching.length : start;
    return { items: matching.slice(from, from + filter.pageSize), total: matching.length, more: matching.length > from + filter.pageSize };
  }

  async recoveryCandidates(accountId: string, since: Date, until: Date): Promise<RecoveryCandidate[]> {
    return this.candidates({ accountId, createdAt: { $gte: since, $lt: until } });
  }

  async latestOfEvents(accountId: string, events: readonly EventKey[]): Promise<RecoveryCandidate[]> {
    if (events.length === 0) return [];
    const wanted = new Set(events.map(eventKeyOf));
    const latest = new Map<string, RecoveryCandidate>();
    for (const candidate of await this.candidates({ accountId }, wanted)) {
      const key = eventKeyOf(candidate);
      const known = latest.get(key);
      if (!known || candidate.createdAt > known.createdAt || (candidate.createdAt.getTime() === known.createdAt.getTime() && candidate.id > known.id)) {
        latest.set(key, candidate);
      }
    }
    return [...latest.values()].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  /**
   * Deliveries in the light form, oldest first, with the status their attempt log gives them. Reads
   * the account's deliveries and the outcome of its attempts (no bodies): a scan on FerretDB, which a
   * recovery (a background job, a few per hour) can afford and a hot path could not.
   */
  private async candidates(query: Filter<DeliveryDocument>, events?: ReadonlySet<string>): Promise<RecoveryCandidate[]> {
    const accountId = query.accountId as string;
    const [docs, attempts] = await Promise.all([
      this.deliveries.find(query, { projection: CANDIDATE_PROJECTION }).sort({ createdAt: 1, _id: 1 }).toArray(),
      this.attempts.find({ accountId }, { projection: { deliveryId: 1, attemptNumber: 1, 'outcome.status': 1, packed: 1 } }).toArray(),
    ]);
    const lastOutcome = new Map<string, { attemptNumber: number; status: Delivery['status'] }>();
    for (const doc of attempts) {
      const { attempt, outcome } = fromAttemptDocument(doc);
      const known = lastOutcome.get(doc.deliveryId);
      if (!known || attempt.attemptNumber > known.attemptNumber)
        lastOutcome.set(doc.deliveryId, { attemptNumber: attempt.attemptNumber, status: outcome.status });
    }
    return docs.flatMap((doc) => {
      const stored = storedDelivery(doc);
      const candidate: RecoveryCandidate = {
        id: stored.id,
        accountId: stored.accountId,
        endpointId: stored.endpointId ?? null,
        registrationId: stored.registrationId,
        eventId: stored.eventId,
        // Unknown for deliveries stored before callbackType was kept.
        callbackType: stored.callbackType ?? null,
        status: stored.status,
        test: stored.test,
        attemptCount: stored.attemptCount,
        createdAt: stored.createdAt,
        occurredAt: stored.occurredAt,
      };
      if (events && !events.has(eventKeyOf(candidate))) return [];
      const last = lastOutcome.get(stored.id);
      if (last && last.attemptNumber > stored.stateAttempt) candidate.status = last.status;
      candidate.attemptCount = Math.max(stored.attemptCount, last?.attemptNumber ?? 0);
      return [candidate];
    });
  }

  async queueRecovery(entries: readonly QueueEntry[]): Promise<void> {
    for (let i = 0; i < entries.length; i += RECOVERY_WRITE_BATCH) {
      const batch = entries.slice(i, i + RECOVERY_WRITE_BATCH).map((entry) => {
        const { _id, ...rest } = toQueueDocument(entry);
        return { replaceOne: { filter: { _id }, replacement: rest, upsert: true } };
      });
      await this.gate.run(() => this.queue.bulkWrite(batch, { ordered: false }));
    }
  }

  private listItem(doc: DeliveryDocument, logs: Map<string, LoggedAttempt[]>): Delivery & { lastFailureClass: FailureClass | null } {
    const folded = foldDelivery(storedDelivery({ ...doc, attempts: [], payload: '' } as DeliveryDocument), logs.get(doc._id) ?? []);
    const last = folded.attempts.at(-1);
    return { ...folded, attempts: [], lastFailureClass: last && !last.succeeded ? (last.failureClass ?? null) : null };
  }

  private async loggedFor(filter: Filter<AttemptDocument>): Promise<Map<string, LoggedAttempt[]>> {
    const docs = await this.attempts.find(filter, { projection: { responseBody: 0 } }).toArray();
    const byDelivery = new Map<string, LoggedAttempt[]>();
    for (const doc of docs) {
      const list = byDelivery.get(doc.deliveryId) ?? [];
      list.push(fromAttemptDocument({ ...doc, responseBody: '' }));
      byDelivery.set(doc.deliveryId, list);
    }
    return byDelivery;
  }

  /**
   * A delivery's attempt log, read by key (`<id>#1`, `<id>#2`, ...) a window at a time, because
   * FerretDB answers nothing but `_id` equality from an index (a find by deliveryId scans the whole
   * log). It ends after PROBE_GAP missing numbers in a row past `atLeast`; a gap inside is an attempt
   * claimed by an instance that died before recording it.
   */
  private async attemptsOf(deliveryId: string, atLeast: number): Promise<LoggedAttempt[]> {
    const found: LoggedAttempt[] = [];
    let lastHit = 0;
    for (let start = 1; ; start += PROBE_WINDOW) {
      const numbers = Array.from({ length: PROBE_WINDOW }, (_, i) => start + i);
      const docs = await Promise.all(numbers.map((n) => this.attempts.findOne({ _id: attemptKey(deliveryId, n) })));
      docs.forEach((doc, i) => {
        if (!doc) return;
        found.push(fromAttemptDocument(doc));
        lastHit = numbers[i] as number;
      });
      const end = start + PROBE_WINDOW - 1;
      if (end >= atLeast && end - lastHit >= PROBE_GAP) return found;
    }
  }

  /**
   * Writes the delivery document's own state (rare paths only), as of the latest attempt or
   * `afterAttempt` (an attempt claimed but not made), whichever is later.
   */
  private async writeState(deliveryId: string, change: (current: Delivery) => Partial<Delivery>, afterAttempt = 0): Promise<void> {
    await this.serial(deliveryId, async () => {
      const current = await this.get(deliveryId);
      if (!current) return;
      const next = { ...current, ...change(current) };
      await this.gate.run(() =>
        this.deliveries.updateOne(
          { _id: deliveryId },
          {
            $set: {
              status: next.status,
              attemptCount: next.attemptCount,
              nextAttemptAt: next.nextAttemptAt,
              finishedAt: next.finishedAt,
              lastResponseStatus: next.lastResponseStatus,
              lastError: next.lastError,
              failureReason: next.failureReason,
              failureEventPending: next.failureEventPending,
              endpointId: next.endpointId,
              updatedAt: next.updatedAt,
              stateAttempt: Math.max(current.attemptCount, afterAttempt),
            },
          },
        ),
      );
    });
  }

  /**
   * Runs state writes to one delivery one after the other: FerretDB 1.x rewrites the whole document
   * from a read taken before, so two concurrent writes can lose one. Within a process this closes it.
   */
  private serial<T>(deliveryId: string, write: () => Promise<T>): Promise<T> {
    const previous = this.writing.get(deliveryId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(write);
    this.writing.set(deliveryId, next);
    void next
      .finally(() => {
        if (this.writing.get(deliveryId) === next) this.writing.delete(deliveryId);
      })
      .catch(() => undefined);
    return next;
  }
}

/**
 * The fence of an attempt holder's queue writes: the entry's next attempt number is still at most the
 * one it holds, so no later attempt has rescheduled or parked it. Entries of the earlier design carry
 * no `nextAttempt` and stay unfenced, as they were.
 */
function fencedBy(heldAttempt: number): Filter<QueueDocument> {
  return { $or: [{ nextAttempt: { $lte: heldAttempt } }, { nextAttempt: { $exists: false } }] };
}
