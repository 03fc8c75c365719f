import type { LastRevision, StoredTrackedState, TrackedKind } from '../lifecycle/stored-tracked-state.js';
import { allClearDueMs, type LightningActivity } from '../lifecycle/lightning-episode.js';
import { notificationId } from '../lifecycle/notification-id.js';
import { decideExpiry } from '../lifecycle/tracked-event.js';
import { addresseeOf } from '../payloads/addressee.js';
import type { Notification } from '../payloads/notification.js';
import { expiredPayload } from './expired-payload.js';
import { allClearNotice, built } from './lightning-notices.js';
import type { RegistrationIndex } from './registration-index.js';

/** An event with an open state past its expiry, as the state store answers it. */
export interface ExpiredEvent {
  eventId: string;
  kind: TrackedKind;
  states: StoredTrackedState[];
  last?: LastRevision;
}

/**
 * The time-driven half of the tracked lifecycle for one event: END (EXPIRED) for the registrations it
 * was active for, the cancellation (EXPIRED) of a standing APPROACHING, rebuilt from the event's last
 * revision. Answers the notifications and the states to keep (those of removed registrations are dropped).
 */
export function expireEvent(event: ExpiredEvent, index: RegistrationIndex, nowMs: number): { notifications: Notification[]; kept: StoredTrackedState[] } {
  const notifications: Notification[] = [];
  const kept: StoredTrackedState[] = [];
  for (const state of event.states) {
    const registration = index.get(state.registrationId);
    if (!registration) continue; // removed since: nobody to tell, state dropped
    const transition = decideExpiry(state, nowMs);
    if (!transition) {
      kept.push(state);
      continue;
    }
    const id = notificationId(state.eventId, state.registrationId, transition.stage);
    const phase = transition.kind === 'end' ? 'END' : 'APPROACH_CANCELLED';
    const reason = transition.kind === 'end' ? { endReason: transition.reason } : { cancelReason: transition.reason };
    const payload = expiredPayload({ id, registration, area: index.areaOf(state.registrationId), state, last: event.last, phase, reason });
    notifications.push({
      notificationId: id,
      addressee: addresseeOf(registration),
      eventKind: state.kind,
      phase,
      eventId: state.eventId,
      stage: transition.stage,
      occurredAtMs: state.occurredAtMs,
      payload,
    });
    kept.push({ ...state, ...transition.state, updatedAtMs: nowMs });
  }
  return { notifications, kept };
}

/**
 * The lightning all-clears due at `nowMs` among stored episodes. The stored last strike may lag the
 * real one by the episodes' write interval (`marginMs`): the all-clear waits that much longer than
 * the quiet period. Answers the due episodes (to close) and the all-clears of those whose
 * registration is still there.
 */
export function dueAllClears(
  stored: readonly LightningActivity[],
  index: RegistrationIndex,
  nowMs: number,
  quietMs: number,
  marginMs: number,
): { due: LightningActivity[]; notifications: Notification[] } {
  const due = stored.filter((a) => allClearDueMs(a, quietMs) + marginMs <= nowMs);
  const notifications: Notification[] = [];
  for (const episode of due) {
    const registration = index.get(episode.registrationId);
    if (registration) notifications.push(built(allClearNotice(registration, episode, quietMs)));
  }
  return { due, notifications };
}
