import { randomUUID } from 'node:crypto';
import type { Collection, Db, Filter } from 'mongodb';
import type { Delivery, FailureReason } from '../domain/delivery.js';
import type { AttemptRecord, ClaimRequest, DeliveryListFilter, DeliveryStore, DueQuery, QueueEntry } from '../ports/delivery-store.js';
import { COLLECTIONS } from './collections.js';
import { fromDeliveryDocument, fromQueueDocument, toDeliveryDocument, toQueueDocument, type DeliveryDocument, type QueueDocument } from './delivery-document.js';
import { InsertBatcher } from './insert-batcher.js';
import { WriteGate } from './write-gate.js';

/** The list view leaves out the two big fields. */
const LIST_PROJECTION = { attempts: 0, payload: 0 } as const;

/** Where outbox markers are parked, so that no due-work query ever returns them. */
const FAR_FUTURE = new Date('9999-12-31T00:00:00Z');

const leaseFree = (now: Date): Filter<QueueDocument> => ({ $or: [{ leaseUntil: null }, { leaseUntil: { $lt: now } }] });

/**
 * Deliveries and their work queue in MongoDB (or FerretDB). Every write to a delivery document is by
 * `_id` only (see collections.ts); conditional writes (claims) touch the small queue collection.
 */
export class MongoDeliveryStore implements DeliveryStore {
  private readonly deliveries: Collection<DeliveryDocument>;
  private readonly queue: Collection<QueueDocument>;
  private readonly deliveryInserts: InsertBatcher<DeliveryDocument>;
  private readonly queueInserts: InsertBatcher<QueueDocument>;
  private readonly writing = new Map<string, Promise<unknown>>();

  private readonly gate: WriteGate;
  private dequeueIds: string[] = [];
  private dequeueFlush: Promise<void> | undefined;

  /** `maxConcurrentWrites`: 1 for the embedded FerretDB (SQLite has one writer); more on MongoDB. */
  constructor(db: Db, { maxConcurrentWrites = 1 }: { maxConcurrentWrites?: number } = {}) {
    this.deliveries = db.collection<DeliveryDocument>(COLLECTIONS.deliveries);
    this.queue = db.collection<QueueDocument>(COLLECTIONS.queue);
    this.gate = new WriteGate(maxConcurrentWrites);
    this.deliveryInserts = new InsertBatcher(this.deliveries, this.gate);
    this.queueInserts = new InsertBatcher(this.queue, this.gate);
  }

  insert(delivery: Delivery): Promise<'inserted' | 'duplicate'> {
    return this.deliveryInserts.insert(toDeliveryDocument(delivery));
  }

  async enqueue(entry: QueueEntry): Promise<void> {
    await this.queueInserts.insert(toQueueDocument(entry)); // a duplicate means it is queued already
  }

  async replaceQueueEntry(entry: QueueEntry): Promise<void> {
    const { _id, ...rest } = toQueueDocument(entry);
    await this.gate.run(() => this.queue.replaceOne({ _id }, rest, { upsert: true }));
  }

  async get(deliveryId: string): Promise<Delivery | null> {
    const doc = await this.deliveries.findOne({ _id: deliveryId });
    return doc ? fromDeliveryDocument(doc) : null;
  }

  async getQueueEntry(deliveryId: string): Promise<QueueEntry | null> {
    const doc = await this.queue.findOne({ _id: deliveryId });
    return doc ? fromQueueDocument(doc) : null;
  }

  async findDue({ now, limit, excludeEndpoints }: DueQuery): Promise<QueueEntry[]> {
    const filter: Filter<QueueDocument> = { dueAt: { $lte: now }, outbox: false, ...leaseFree(now) };
    if (excludeEndpoints.length > 0) filter.endpointId = { $nin: [...excludeEndpoints] };
    const docs = await this.queue.find(filter).sort({ dueAt: 1 }).limit(limit).toArray();
    return docs.map(fromQueueDocument);
  }

  async claim({ ids, owner, now, leaseUntil }: ClaimRequest): Promise<QueueEntry[]> {
    if (ids.length === 0) return [];
    // The token tells which entries THIS call leased: on a store without atomic conditional updates
    // (FerretDB) the last writer wins, and only the winner reads its own token back.
    const claimToken = randomUUID();
    await this.gate.run(() =>
      this.queue.updateMany({ _id: { $in: [...ids] }, ...leaseFree(now) }, { $set: { leaseOwner: owner, leaseUntil, claimToken }, $inc: { attempt: 1 } }),
    );
    const docs = await this.queue.find({ claimToken }).toArray();
    return docs.map(fromQueueDocument);
  }

  async recordAttempt(deliveryId: string, record: AttemptRecord): Promise<void> {
    await this.serial(deliveryId, () => this.deliveries.updateOne(
      { _id: deliveryId },
      {
        $push: { attempts: record.attempt },
        $set: {
          status: record.status,
          attemptCount: record.attempt.attemptNumber,
          nextAttemptAt: record.nextAttemptAt,
          finishedAt: record.finishedAt,
          lastResponseStatus: record.attempt.responseStatus,
          lastError: record.attempt.error,
          failureReason: record.failureReason,
          failureEventPending: record.publishFailure,
          endpointId: record.endpointId,
          updatedAt: record.attempt.startedAt,
        },
      },
    ));
  }

  async reschedule(deliveryId: string, dueAt: Date): Promise<void> {
    await this.gate.run(() => this.queue.updateOne({ _id: deliveryId }, { $set: { dueAt, leaseOwner: null, leaseUntil: null, claimToken: null, trigger: 'scheduled' } }));
  }

  /** Coalesced: ids that arrive while a delete runs are removed together by the next deleteMany. */
  async dequeue(deliveryIds: readonly string[]): Promise<void> {
    if (deliveryIds.length === 0) return;
    this.dequeueIds.push(...deliveryIds);
    while (this.dequeueIds.some((id) => deliveryIds.includes(id))) {
      if (!this.dequeueFlush) {
        const ids = this.dequeueIds;
        this.dequeueIds = [];
        this.dequeueFlush = this.gate
          .run(async () => {
            if (ids.length === 1) await this.queue.deleteOne({ _id: ids[0] as string });
            else await this.queue.deleteMany({ _id: { $in: ids } });
          })
          .finally(() => (this.dequeueFlush = undefined));
        await this.dequeueFlush;
        return;
      }
      await this.dequeueFlush.catch(() => undefined);
    }
  }

  async release(deliveryIds: readonly string[]): Promise<void> {
    if (deliveryIds.length === 0) return;
    // The attempt number taken at claim time is given back: nothing was sent.
    await this.gate.run(() => this.queue.updateMany({ _id: { $in: [...deliveryIds] } }, { $set: { leaseOwner: null, leaseUntil: null, claimToken: null }, $inc: { attempt: -1 } }));
  }

  async parkForOutbox(deliveryId: string): Promise<void> {
    await this.gate.run(() => this.queue.updateOne({ _id: deliveryId }, { $set: { outbox: true, dueAt: FAR_FUTURE, leaseOwner: null, leaseUntil: null, claimToken: null } }));
  }

  async pendingFailureEvents(limit: number): Promise<Delivery[]> {
    const markers = await this.queue.find({ outbox: true }, { projection: { _id: 1 } }).limit(limit).toArray();
    const deliveries = await Promise.all(markers.map((m) => this.get(m._id)));
    const owed: Delivery[] = [];
    for (const [i, delivery] of deliveries.entries()) {
      if (delivery?.failureEventPending) owed.push(delivery);
      else await this.gate.run(() => this.queue.deleteOne({ _id: (markers[i] as { _id: string })._id })); // published already
    }
    return owed;
  }

  async markFailureEventPublished(deliveryId: string): Promise<void> {
    await this.serial(deliveryId, () => this.deliveries.updateOne({ _id: deliveryId }, { $set: { failureEventPending: false } }));
    await this.gate.run(() => this.queue.deleteOne({ _id: deliveryId, outbox: true }));
  }

  async expedite(deliveryId: string, at: Date): Promise<boolean> {
    const result = await this.gate.run(() => this.queue.updateOne({ _id: deliveryId, outbox: false }, { $set: { dueAt: at, trigger: 'manual' }, $inc: { manualAttempts: 1 } }));
    return result.matchedCount > 0;
  }

  async markDead(deliveryId: string, reason: FailureReason, error: string, at: Date): Promise<void> {
    await this.serial(deliveryId, () =>
      this.deliveries.updateOne(
        { _id: deliveryId },
        { $set: { status: 'dead', failureReason: reason, lastError: error, finishedAt: at, updatedAt: at, nextAttemptAt: null, failureEventPending: true } },
      ),
    );
  }

  async reopen(deliveryId: string, at: Date): Promise<void> {
    await this.serial(deliveryId, () => this.deliveries.updateOne({ _id: deliveryId }, { $set: { status: 'pending', nextAttemptAt: at, finishedAt: null, updatedAt: at } }));
  }

  /**
   * Runs writes to one delivery one after the other. MongoDB applies each update atomically anyway;
   * FerretDB 1.x rewrites the whole document from a read taken before, so two concurrent `$set`s on
   * different fields can lose one. Within a process this closes that gap.
   */
  private serial<T>(deliveryId: string, write: () => Promise<T>): Promise<T> {
    const previous = this.writing.get(deliveryId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.gate.run(write));
    this.writing.set(deliveryId, next);
    void next.finally(() => {
      if (this.writing.get(deliveryId) === next) this.writing.delete(deliveryId);
    }).catch(() => undefined);
    return next;
  }

  async list(filter: DeliveryListFilter): Promise<{ items: Delivery[]; total: number }> {
    const query: Filter<DeliveryDocument> = { accountId: filter.accountId };
    if (filter.registrationId) query.registrationId = filter.registrationId;
    if (filter.status === 'in-flight') query.status = 'pending';
    else if (filter.status) query.status = filter.status;
    if (filter.from || filter.to) {
      query.createdAt = { ...(filter.from ? { $gte: filter.from } : {}), ...(filter.to ? { $lt: filter.to } : {}) };
    }
    const [docs, total] = await Promise.all([
      this.deliveries
        .find(query, { projection: LIST_PROJECTION })
        .sort({ createdAt: -1, _id: -1 })
        .skip(filter.pageNumber * filter.pageSize)
        .limit(filter.pageSize)
        .toArray(),
      this.deliveries.countDocuments(query),
    ]);
    return { items: docs.map((doc) => fromDeliveryDocument({ ...doc, attempts: [], payload: '' } as DeliveryDocument)), total };
  }
}

