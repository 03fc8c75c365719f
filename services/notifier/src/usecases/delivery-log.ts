import { WEBHOOK_EVENT_TYPES, webhookEnvelope } from '@stormhook/webhooks';
import { decodeCursor, encodeCursor } from '../domain/delivery-cursor.js';
import type { FailureClass } from '../domain/failure-class.js';
import { newDeliveryState, type Delivery, type DeliveryStatus } from '../domain/delivery.js';
import { newId } from '../domain/ids.js';
import { fail, limit, notFound, ok, validation, type Result, conflict } from '../domain/notifier-error.js';
import type { DeliveryWorker } from '../delivery/delivery-worker.js';
import type { Clock } from '../ports/clock.js';
import { queueEntry, type DeliveryStore } from '../ports/delivery-store.js';
import type { EndpointRepository } from '../ports/endpoint-repository.js';
import type { WebhookStatsSink } from '../ports/webhook-stats-sink.js';
import { NO_ENDPOINT } from './endpoint-usecases.js';

/** A delivery as its owner sees it: `in-flight` when an attempt holds a live lease right now. */
export interface DeliveryView extends Omit<Delivery, 'status'> {
  status: DeliveryStatus | 'in-flight';
}

export interface ListDeliveriesQuery {
  registrationId?: string | undefined;
  status?: DeliveryView['status'] | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  failureClass?: FailureClass | undefined;
  callbackType?: string | undefined;
  /** From a previous page's nextCursor: the page after it (pageNumber must then be 0). */
  cursor?: string | undefined;
  pageNumber: number;
  pageSize: number;
}

export interface DeliveryListView {
  items: DeliveryView[];
  total: number;
  /** The cursor of the page after this one; null on the last page. */
  nextCursor: string | null;
}

export interface DeliveryLogDeps {
  store: DeliveryStore;
  endpoints: EndpointRepository;
  clock: Clock;
  worker?: DeliveryWorker;
  /** Manual redeliveries one delivery may have (NOTIFIER_MAX_MANUAL_REDELIVERIES). */
  maxManualRedeliveries: number;
  stats?: WebhookStatsSink | undefined;
}

const NOT_FOUND = 'Delivery not found';
export const MAX_PAGE_SIZE = 100;

/** The delivery log of an account and replay: list, get with attempts, redeliver, send a test. */
export class DeliveryLog {
  constructor(private readonly deps: DeliveryLogDeps) {}

  async list(accountId: string, query: ListDeliveriesQuery): Promise<Result<DeliveryListView>> {
    if (!Number.isInteger(query.pageNumber) || query.pageNumber < 0) return fail(validation('pageNumber', 'must be an integer of at least 0'));
    if (!Number.isInteger(query.pageSize) || query.pageSize < 1 || query.pageSize > MAX_PAGE_SIZE) {
      return fail(validation('pageSize', `must be an integer between 1 and ${MAX_PAGE_SIZE} records`));
    }
    if (query.from && query.to && query.from >= query.to) return fail(validation('from', 'must be before to'));
    if (query.callbackType !== undefined && !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(query.callbackType)) {
      return fail(validation('callbackType', `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`));
    }
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    if (query.cursor !== undefined && !after) return fail(validation('cursor', 'is not a cursor this API issued (use nextCursor of a previous page)'));
    if (after && query.pageNumber > 0) return fail(validation('pageNumber', 'must be 0 or absent with a cursor: the cursor says where the page starts'));
    const { cursor: _cursor, ...filters } = query;
    const page = await this.deps.store.list({ accountId, ...filters, after });
    const last = page.items.at(-1);
    return ok({
      items: await Promise.all(page.items.map((d) => this.view(d))),
      total: page.total,
      nextCursor: page.more && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
    });
  }

  async get(accountId: string, deliveryId: string): Promise<Result<DeliveryView>> {
    const delivery = await this.owned(accountId, deliveryId);
    return delivery ? ok(await this.view(delivery)) : fail(notFound(NOT_FOUND));
  }

  /**
   * One manual attempt now, with the same webhook-id so receivers de-duplicate. A pending delivery is
   * moved forward (its automatic retries continue after); a finished one gets exactly one attempt.
   */
  async redeliver(accountId: string, deliveryId: string): Promise<Result<DeliveryView>> {
    const delivery = await this.owned(accountId, deliveryId);
    if (!delivery) return fail(notFound(NOT_FOUND));
    const endpoint = await this.deps.endpoints.findByAccount(accountId);
    if (!endpoint) return fail(validation('webhook', 'no webhook is stored for this account'));
    if (endpoint.status === 'disabled') return fail(validation('webhook', 'the webhook endpoint is disabled; enable it first'));
    const now = this.deps.clock.now();
    // An attempt in flight ends by removing the delivery from the queue, which would silently drop a
    // redelivery queued meanwhile: say so instead, and let the caller ask again once it has finished.
    if ((await this.view(delivery)).status === 'in-flight') {
      return fail(conflict('An attempt of this delivery is in flight; ask for the redelivery again once it has finished'));
    }
    // Each redelivery is a request to a host the customer chose: capped per delivery, so one delivery
    // and a loop cannot turn Stormhook into a reflector (the gateway caps them per account and hour too).
    if (!(await this.deps.store.claimManualRedelivery(delivery.id, this.deps.maxManualRedeliveries))) {
      return fail(
        limit(`Redelivery limit reached: this delivery has had ${this.deps.maxManualRedeliveries} manual redeliveries, the most one delivery may have`),
      );
    }
    if (delivery.status === 'pending') {
      await this.deps.store.expedite(delivery.id, now);
    } else {
      await this.deps.store.reopen(delivery.id, now);
      this.deps.stats?.opened(accountId);
      // This replaces an outbox marker too: the delivery keeps its owed-event flag and the worker parks
      // it again after the manual attempt.
      await this.deps.store.replaceQueueEntry(queueEntry(delivery, endpoint.id, now, { trigger: 'manual', single: true, attempt: delivery.attemptCount + 1 }));
    }
    this.deps.worker?.wake();
    return this.get(accountId, deliveryId);
  }

  /** A test delivery to the stored endpoint, through the same pipeline as real ones. */
  async sendTest(accountId: string): Promise<Result<DeliveryView>> {
    const endpoint = await this.deps.endpoints.findByAccount(accountId);
    if (!endpoint) return fail(notFound(NO_ENDPOINT));
    const now = this.deps.clock.now();
    const id = newId('ntf', now.getTime());
    const payload = JSON.stringify({
      ...webhookEnvelope('webhook.test', now.getTime()),
      id,
      accountId,
      message: 'Test delivery from Stormhook',
      timeEpochMillis: now.getTime(),
    });
    const delivery: Delivery = {
      id,
      accountId,
      endpointId: endpoint.id,
      registrationId: '',
      registrationKind: 'TEST',
      recipientId: '',
      eventKind: 'TEST',
      phase: 'UNSPECIFIED',
      eventId: id,
      occurredAt: now,
      triggeredAt: now,
      payload,
      callbackType: 'webhook.test',
      ackId: id,
      test: true,
      ...newDeliveryState(now),
    };
    await this.deps.store.insert(delivery);
    this.deps.stats?.opened(accountId);
    // One manual attempt: a test must not keep retrying against an endpoint being set up.
    await this.deps.store.enqueue(queueEntry(delivery, endpoint.id, now, { trigger: 'manual', single: true }));
    this.deps.worker?.wake();
    return ok(await this.view(delivery));
  }

  private async owned(accountId: string, deliveryId: string): Promise<Delivery | null> {
    const delivery = await this.deps.store.get(deliveryId);
    return delivery && delivery.accountId === accountId ? delivery : null; // a foreign id is "not found"
  }

  private async view(delivery: Delivery): Promise<DeliveryView> {
    if (delivery.status !== 'pending') return delivery;
    const entry = await this.deps.store.getQueueEntry(delivery.id);
    // A pending delivery without a queue entry is a fresh one whose first attempt an instance holds in
    // memory (or one being moved into the queue by a retry or a takeover): in flight either way.
    const leased = !entry || (entry.leaseUntil && entry.leaseUntil > this.deps.clock.now());
    return { ...delivery, status: leased ? 'in-flight' : 'pending', nextAttemptAt: entry && !leased ? entry.dueAt : delivery.nextAttemptAt };
  }
}
