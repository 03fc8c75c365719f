import { alarmV1, enumName } from '@stormhook/proto';
import { acknowledgementId, newDeliveryState, payloadEventType, type Delivery, type FailureReason } from '../domain/delivery.js';
import type { WebhookEndpoint } from '../domain/endpoint.js';
import type { Clock } from '../ports/clock.js';
import type { DeliveryIntake } from '../ports/delivery-intake.js';
import { OUTBOX_DUE_AT, queueEntry, type DeliveryStore } from '../ports/delivery-store.js';
import type { EndpointCache } from '../delivery/endpoint-cache.js';
import type { WebhookStatsSink } from '../ports/webhook-stats-sink.js';

export type AcceptResult = 'accepted' | 'duplicate' | 'dead-on-arrival';

export interface AcceptAlarmDeps {
  store: DeliveryStore;
  endpoints: Pick<EndpointCache, 'byAccount'>;
  clock: Clock;
  /** This instance's delivery worker: every fresh live delivery is offered to it. */
  intake: DeliveryIntake;
  /**
   * How long the worker's hold of a fresh delivery's first attempt lasts (its lease). A replayed event
   * queues the next attempt this long after it, so never beside a hold that is still alive.
   */
  holdLeaseMs: number;
  stats?: WebhookStatsSink | undefined;
}

/** The stored delivery of a triggered alarm. */
export function deliveryFromEvent(event: alarmV1.AlarmTriggered, endpointId: string | null, now: Date): Delivery {
  return {
    id: event.notificationId,
    accountId: event.accountId,
    endpointId,
    registrationId: event.registrationId,
    registrationKind: enumName(alarmV1.RegistrationKind, event.registrationKind) ?? 'UNSPECIFIED',
    recipientId: event.recipientId,
    eventKind: enumName(alarmV1.AlarmEventKind, event.eventKind) ?? 'UNSPECIFIED',
    phase: enumName(alarmV1.AlarmPhase, event.phase) ?? 'UNSPECIFIED',
    eventId: event.eventId,
    occurredAt: new Date(event.occurredAtEpochMs || now.getTime()),
    triggeredAt: new Date(event.triggeredAtEpochMs || now.getTime()),
    payload: event.payloadJson,
    callbackType: payloadEventType(event.payloadJson),
    ackId: acknowledgementId(event.acknowledgementId, event.payloadJson, event.notificationId),
    test: false,
    ...newDeliveryState(now),
  };
}

/**
 * Turns AlarmTriggered into one durable delivery. Only storage happens here (the send is the worker's
 * job), so the Kafka handler returns within milliseconds. Idempotent: the notification id is the
 * delivery's key, so a replayed event finds its chain and at most re-queues it.
 */
export class AcceptAlarm {
  constructor(private readonly deps: AcceptAlarmDeps) {}

  async execute(event: alarmV1.AlarmTriggered): Promise<AcceptResult> {
    const { store, clock } = this.deps;
    const now = clock.now();
    const endpoint = await this.deps.endpoints.byAccount(event.accountId);
    const delivery = deliveryFromEvent(event, endpoint?.id ?? null, now);
    const deadReason: FailureReason | null = !endpoint ? 'no-endpoint' : endpoint.status === 'disabled' ? 'endpoint-disabled' : null;
    if (deadReason) {
      // Kept for the delivery log and a later manual redelivery; DeliveryFailed is owed (outbox).
      const dead: Delivery = {
        ...delivery,
        status: 'dead',
        nextAttemptAt: null,
        finishedAt: now,
        failureReason: deadReason,
        failureEventPending: true,
        lastError: deadReason === 'no-endpoint' ? 'the account has no webhook endpoint' : 'the webhook endpoint is disabled',
      };
      const inserted = await store.insert(dead);
      await store.enqueue(queueEntry(dead, endpoint?.id ?? '', now, { outbox: true, dueAt: OUTBOX_DUE_AT }));
      return inserted === 'duplicate' ? 'duplicate' : 'dead-on-arrival';
    }
    const live = endpoint as WebhookEndpoint;
    if ((await store.insert(delivery)) === 'duplicate') {
      // A crash may have come after the delivery was stored but before its hold or queue entry. The
      // replay cannot tell that from an attempt 1 still held by a live instance, so it queues the
      // attempt after it, due once any such hold has expired: a duplicate key when an entry exists, a
      // finished delivery by then is dropped unsent, and an orphan is sent.
      const existing = await store.get(delivery.id);
      if (existing?.status === 'pending') {
        const after = new Date(now.getTime() + this.deps.holdLeaseMs);
        await store.enqueue(queueEntry(existing, existing.endpointId ?? live.id, after, { attempt: Math.max(existing.attemptCount, 1) + 1 }));
      }
      return 'duplicate';
    }
    // Counted once, by the instance whose insert stored it: the replay above is a duplicate.
    this.deps.stats?.opened(delivery.accountId);
    // Sent from memory when this instance has a slot for it, queued otherwise: the worker's protocol.
    await this.deps.intake.offer(delivery, live);
    return 'accepted';
  }
}
