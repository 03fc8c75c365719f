import { notificationId } from '../../lifecycle/notification-id.js';
import type { DecidedNotice } from '../../matching/lightning-notices.js';
import type { Notification } from '../../payloads/notification.js';

/** One callback the live path would have sent, as the back-test keeps it until the outcome is tallied. */
export interface SimulatedCallback {
  /** When the live path would have sent it: the simulated time of the decision. */
  atMs: number;
  callbackType: string;
  /** The phase (START, UPDATE, END, ...); ALARM for a forecast alarm. */
  stage: string;
  /** The weather event (or slot) it is about: one alarm per event counts in the threshold sweep. */
  eventId: string;
  /** Whether it opens an alarm (a START: a strike, a storm's or rain area's episode, a forecast slot). */
  opens: boolean;
  /** Its notification id's inputs, joined: what the ledger would hold for it (the id is a hash of them). */
  key: string;
  /** The body, byte-for-byte the live one once serialised (built on demand: only samples need one). */
  body(): Record<string, unknown>;
}

function keyOf(eventId: string, registrationId: string, stage: string): string {
  return `${eventId}\u0000${registrationId}\u0000${stage}`;
}

export function fromNotification(notification: Notification, atMs: number): SimulatedCallback {
  const payload = notification.payload;
  return {
    atMs,
    callbackType: String(payload['type']),
    stage: notification.eventKind === 'FORECAST' ? 'ALARM' : notification.phase,
    eventId: notification.eventId,
    opens: notification.phase === 'START',
    key: keyOf(notification.eventId, notification.addressee.registrationId, notification.stage),
    body: () => payload,
  };
}

/** A lightning callback kept as its decided notice: the bulk of a back-test, so no closure and no body until asked. */
class NoticeCallback implements SimulatedCallback {
  readonly callbackType: string;
  readonly stage: string;
  readonly eventId: string;
  readonly opens: boolean;
  readonly key: string;

  constructor(
    private readonly notice: DecidedNotice,
    readonly atMs: number,
  ) {
    this.callbackType = notice.callbackType;
    this.stage = notice.phase;
    this.eventId = notice.eventId;
    this.opens = notice.phase === 'START';
    this.key = keyOf(notice.eventId, notice.registration.registrationId, notice.stage);
  }

  body(): Record<string, unknown> {
    const { notice } = this;
    return notice.payload(notificationId(notice.eventId, notice.registration.registrationId, notice.stage));
  }
}

export function fromNotice(notice: DecidedNotice, atMs: number): SimulatedCallback {
  return new NoticeCallback(notice, atMs);
}

/** The callbacks that open an alarm, one per weather event (or slot): the measure of the threshold sweep. */
export function alarmCount(callbacks: readonly SimulatedCallback[]): number {
  const events = new Set<string>();
  for (const callback of callbacks) if (callback.opens) events.add(callback.eventId);
  return events.size;
}
