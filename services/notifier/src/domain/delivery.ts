import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@stormhook/webhooks';
import type { FailureClass } from './failure-class.js';
/**
 * One webhook delivery per notification id: the payload, its state and the attempt log.
 * `in-flight` is not stored on the delivery: it is "pending with a live lease" in the work queue.
 */
export type DeliveryStatus = 'pending' | 'succeeded' | 'dead';
export type AttemptTrigger = 'scheduled' | 'manual';

export type EventKind = 'LIGHTNING' | 'THUNDERSTORM' | 'PRECIPITATION' | 'FORECAST' | 'TEST' | 'UNSPECIFIED';
export type FailureReason = 'retries-exhausted' | 'endpoint-gone' | 'endpoint-disabled' | 'no-endpoint';

export interface DeliveryAttempt {
  attemptNumber: number;
  trigger: AttemptTrigger;
  /** The URL called, API key masked. */
  url: string;
  startedAt: Date;
  durationMs: number;
  /** null when no response arrived (timeout, refused, blocked). */
  responseStatus: number | null;
  /** At most {@link MAX_RESPONSE_BODY_BYTES} bytes of the response body. */
  responseBody: string;
  responseBodyTruncated: boolean;
  succeeded: boolean;
  error: string | null;
  nextAttemptAt: Date | null;
  /** Why it failed, by class (failure-class.ts); absent on success and on attempts logged before classes existed. */
  failureClass?: FailureClass | undefined;
}

export interface Delivery {
  /** The notification id: delivery id, `webhook-id` header and de-duplication key at once. */
  id: string;
  accountId: string;
  endpointId: string | null;
  registrationId: string;
  registrationKind: string;
  recipientId: string;
  eventKind: EventKind;
  phase: string;
  eventId: string;
  occurredAt: Date;
  /** When the matcher raised it; the start of the end-to-end latency. */
  triggeredAt: Date;
  /** Exact body to send (JSON text). */
  payload: string;
  /** The payload's `type` (lightning.strike, thunderstorm.start, ...), kept beside it so lists can filter without reading bodies; absent on deliveries stored before it was. */
  callbackType?: WebhookEventType | undefined;
  /** The id the receiver's acknowledgement must echo. */
  ackId: string;
  test: boolean;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
  lastResponseStatus: number | null;
  lastError: string | null;
  failureReason: FailureReason | null;
  /** The class of the last attempt's failure, in lists; null when it succeeded or none was made. */
  lastFailureClass?: FailureClass | null | undefined;
  /** Outbox flag: DeliveryFailed must still be published (set together with status dead). */
  failureEventPending: boolean;
  attempts: DeliveryAttempt[];
}

/** The state fields of a delivery not yet attempted: pending, due now. */
export type NewDeliveryState = Pick<
  Delivery,
  | 'status'
  | 'attemptCount'
  | 'nextAttemptAt'
  | 'createdAt'
  | 'updatedAt'
  | 'finishedAt'
  | 'lastResponseStatus'
  | 'lastError'
  | 'failureReason'
  | 'failureEventPending'
  | 'attempts'
>;

/** What every new delivery starts with, whether a notification or a test send accepted it. */
export function newDeliveryState(now: Date): NewDeliveryState {
  return {
    status: 'pending',
    attemptCount: 0,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
    finishedAt: null,
    lastResponseStatus: null,
    lastError: null,
    failureReason: null,
    failureEventPending: false,
    attempts: [],
  };
}

/** A body cut here keeps the attempt log bounded whatever a receiver answers (Svix keeps 20 kB too). */
export const MAX_RESPONSE_BODY_BYTES = 20_000;

/** The payload's top-level string `field`, or undefined (no such string, or not a JSON object). */
function topLevelString(payload: string, field: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(payload);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const value = (parsed as Record<string, unknown>)[field];
      if (typeof value === 'string' && value !== '') return value;
    }
  } catch {
    // not JSON: no field
  }
  return undefined;
}

/** The acknowledgement id: the explicit one, else the payload's top-level "id" string, else the notification id. */
export function acknowledgementId(explicit: string, payload: string, notificationId: string): string {
  return explicit || (topLevelString(payload, 'id') ?? notificationId);
}

/**
 * The event type of a delivery: the payload's own `type`, so the `webhook-event-type` header cannot
 * say something else than the body (whoever built the body chose its type; nobody derives it twice).
 * Undefined for a body without a type of the catalogue (a header value is never invented).
 */
export function payloadEventType(payload: string): WebhookEventType | undefined {
  const type = topLevelString(payload, 'type');
  return type !== undefined && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type) ? (type as WebhookEventType) : undefined;
}
