import { newEventId } from '@stormhook/kafka';

/**
 * Typed, time-ordered identifiers (`<prefix>_` + ULID) so that logs and support tickets are greppable:
 * `ep_` webhook endpoints, `ntf_` notifications (test deliveries get theirs here), `msg_` messages,
 * `rcv_` recovery jobs.
 */
export type IdPrefix = 'ep' | 'ntf' | 'msg' | 'rcv';

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return `${prefix}_${newEventId(now).slice('evt_'.length)}`;
}
