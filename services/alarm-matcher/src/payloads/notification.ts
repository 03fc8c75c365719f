import type { WebhookEventType } from '@stormhook/webhooks';
import type { RegistrationKind } from '../domain/registration.js';

export type EventKind = 'LIGHTNING' | 'THUNDERSTORM' | 'PRECIPITATION' | 'FORECAST';
/** START: new for the registration; UPDATE: worsened; END: stopped affecting it; ALL_CLEAR: lightning quiet period over. */
export type Phase = 'START' | 'UPDATE' | 'END' | 'ALL_CLEAR';

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

/** The event type of a storm or rain notification: START, UPDATE and END only (ALL_CLEAR is lightning's). */
export function trackedEventType(kind: 'thunderstorm' | 'precipitation', phase: Phase): WebhookEventType {
  return phase === 'UPDATE' ? `${kind}.update` : phase === 'END' ? `${kind}.end` : `${kind}.start`;
}

/** Rounds a metre distance to centimetres, so payloads do not carry float noise. */
export function metres(value: number): number {
  return Math.round(value * 100) / 100;
}
