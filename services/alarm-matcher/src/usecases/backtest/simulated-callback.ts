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
  /** With eventId, the inputs of its notification id (a hash of the three): what the ledger holds. */
  registrationId: string;
  /** The lifecycle stage of the id (start, worse-HIGH, end~2, all-clear@..., strike, forecast). */
  idStage: string;
  /** The body, byte-for-byte the live one once serialised (built on demand: only samples need one). */
  body(): Record<string, unknown>;
}

export function fromNotification(notification: Notification, atMs: number): SimulatedCallback {
  const payload = notification.payload;
  return {
    atMs,
    callbackType: String(payload['type']),
    stage: notification.eventKind === 'FORECAST' ? 'ALARM' : notification.phase,
    eventId: notification.eventId,
    opens: notification.phase === 'START',
    registrationId: notification.addressee.registrationId,
    idStage: notification.stage,
    body: () => payload,
  };
}

/** A lightning callback kept as its decided notice: the bulk of a back-test, so no closure and no body until asked. */
class NoticeCallback implements SimulatedCallback {
  readonly callbackType: string;
  readonly stage: string;
  readonly eventId: string;
  readonly opens: boolean;
  readonly registrationId: string;
  readonly idStage: string;

  constructor(
    private readonly notice: DecidedNotice,
    readonly atMs: number,
  ) {
    this.callbackType = notice.callbackType;
    this.stage = notice.phase;
    this.eventId = notice.eventId;
    this.opens = notice.phase === 'START';
    this.registrationId = notice.registration.registrationId;
    this.idStage = notice.stage;
  }

  body(): Record<string, unknown> {
    const { notice } = this;
    return notice.payload(notificationId(notice.eventId, this.registrationId, this.idStage));
  }
}

export function fromNotice(notice: DecidedNotice, atMs: number): SimulatedCallback {
  return new NoticeCallback(notice, atMs);
}

/**
 * The notification ids claimed so far, as the ledger holds them: a second decision of one id is
 * dropped. Filed by event id (a string the decoder made, its hash computed once), each event holding
 * its few callbacks: no joined key per callback.
 */
export class ClaimedIds {
  private readonly byEvent = new Map<string, SimulatedCallback | SimulatedCallback[]>();

  /** True when the callback's id was not claimed yet (it is now). */
  claim(callback: SimulatedCallback): boolean {
    const held = this.byEvent.get(callback.eventId);
    if (held === undefined) {
      this.byEvent.set(callback.eventId, callback);
      return true;
    }
    const same = (other: SimulatedCallback) => other.registrationId === callback.registrationId && other.idStage === callback.idStage;
    if (Array.isArray(held)) {
      if (held.some(same)) return false;
      held.push(callback);
      return true;
    }
    if (same(held)) return false;
    this.byEvent.set(callback.eventId, [held, callback]);
    return true;
  }
}

/** The callbacks that open an alarm, one per weather event (or slot): the measure of the threshold sweep. */
export function alarmCount(callbacks: readonly SimulatedCallback[]): number {
  const events = new Set<string>();
  for (const callback of callbacks) if (callback.opens) events.add(callback.eventId);
  return events.size;
}
