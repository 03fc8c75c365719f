import type { WebhookEventType } from '@stormhook/webhooks';
import type { RegistrationKind } from '../domain/registration.js';

export type EventKind = 'LIGHTNING' | 'THUNDERSTORM' | 'PRECIPITATION' | 'FORECAST';
/**
 * START: new for the registration; UPDATE: worsened; END: stopped affecting it; ALL_CLEAR: lightning
 * quiet period over; APPROACHING: predicted to arrive within the registration's lead;
 * APPROACH_CANCELLED: an APPROACHING withdrawn (no entry predicted any more, or the event expired).
 */
export type Phase = 'START' | 'UPDATE' | 'END' | 'ALL_CLEAR' | 'APPROACHING' | 'APPROACH_CANCELLED';

/** Who a notification goes to. */
export interface Addressee {
  registrationId: string;
  accountId: string;
  kind: RegistrationKind;
  recipientId: string;
}

/** One webhook delivery to be made: becomes an AlarmTriggered on alarm.triggered.v1. */
export interface Notification {
  notificationId: string;
  addressee: Addressee;
  eventKind: EventKind;
  phase: Phase;
  /** The weather event (or slot) it is about. */
  eventId: string;
  /** The stage in the event's life, for the ledger and logs (start, worse-HIGH, end~2, ...). */
  stage: string;
  occurredAtMs: number;
  /** The request body; every field is documented in the README. */
  payload: Record<string, unknown>;
}

const TRACKED_TYPE_SUFFIX: Record<Exclude<Phase, 'ALL_CLEAR'>, string> = {
  START: 'start',
  UPDATE: 'update',
  END: 'end',
  APPROACHING: 'approaching',
  APPROACH_CANCELLED: 'approach_cancelled',
};

/** The event type of a storm or rain notification (ALL_CLEAR is lightning's: it maps to START's type, as before). */
export function trackedEventType(kind: 'thunderstorm' | 'precipitation', phase: Phase): WebhookEventType {
  return `${kind}.${TRACKED_TYPE_SUFFIX[phase === 'ALL_CLEAR' ? 'START' : phase]}` as WebhookEventType;
}

/** Rounds a metre distance to centimetres, so payloads do not carry float noise. */
export function metres(value: number): number {
  return Math.round(value * 100) / 100;
}
