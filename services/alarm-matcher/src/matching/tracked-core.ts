/**
 * The matching core: what the live path and the back-test both run.
 *
 * Each decision is a pure step (registration index, event, lifecycle state, now) -> (notifications,
 * next state), with no I/O, no wall clock and no awaits; the caller owns the state and the time:
 * - tracked events (this file, with tracked-revision.ts): a storm or rain revision against the
 *   stored states of its event;
 * - lightning (lightning-core.ts, lightning-notices.ts, episode-book.ts): a strike against the open
 *   episodes and ring trails;
 * - time (expiry-core.ts): the ENDs of events that stopped being updated and the lightning all-clears;
 * - forecast slots (forecast/slot-alarm.ts): one forecast alarm against the latest cells at a slot.
 * The state is updated in place where it is memory the caller holds anyway (episode books, ring
 * trails, motion tracks): a back-test over 100,000 strikes copies nothing per strike.
 *
 * Where things live, one home each: the pure core sits with what it decides about, here in
 * `matching/` (beside the registration index and the filter rules it matches with) and in
 * `forecast/` (beside the daily values, cells, slots and violations); the live wrappers that load
 * the state, call the core, dispatch and save are in `usecases/live/`; the back-test that drives the
 * core over the weather history is in `usecases/backtest/`.
 */
import type { StoredTrackedState } from '../lifecycle/stored-tracked-state.js';
import { notificationId } from '../lifecycle/notification-id.js';
import { decideRevision, type TrackedState } from '../lifecycle/tracked-event.js';
import { addresseeOf } from '../payloads/addressee.js';
import type { Notification } from '../payloads/notification.js';
import type { RegistrationIndex } from './registration-index.js';
import { PHASE, type TrackedRevision } from './tracked-revision.js';

/** What a revision decided: its notifications, and the event's complete set of states to store (none: nothing to store). */
export interface TrackedOutcome {
  notifications: Notification[];
  states?: StoredTrackedState[];
}

/** Epoch ms from a payload's epoch-seconds field, if it has one. */
function secondsField(payload: Record<string, unknown>, name: string): number | undefined {
  const value = payload[name];
  return typeof value === 'number' ? value * 1000 : undefined;
}

/**
 * Over before it arrived (a backlog, a first start reading the topic history): the sweeper ends
 * whatever it had started; nothing new starts, and its states need not even be read.
 */
export function revisionIsOver(event: TrackedRevision, nowMs: number): boolean {
  return event.expiresAtMs <= nowMs;
}

/**
 * Runs one revision through the lifecycle of every registration involved (APPROACHING before arrival
 * for registrations that asked for it, START, UPDATE when worse, END when it stops affecting one),
 * given the event's stored states. States of registrations no longer in the index are dropped
 * silently (nobody to tell).
 */
export function decideTrackedRevision(
  event: TrackedRevision,
  stored: ReadonlyMap<string, StoredTrackedState>,
  index: RegistrationIndex,
  nowMs: number,
): TrackedOutcome {
  if (event.matches.size === 0 && event.approach.within.size === 0 && stored.size === 0) return { notifications: [] };
  const kept = new Map<string, StoredTrackedState>();
  let gone = 0;
  for (const [id, state] of stored) {
    if (index.get(state.registrationId) === undefined) gone++;
    else kept.set(id, state);
  }
  const plain = new Map<string, TrackedState>(kept);
  const transitions = decideRevision(
    { eventId: event.eventId, revision: event.revision, rank: event.rank, rankName: event.rankName, expiresAtMs: event.expiresAtMs },
    plain,
    new Set(event.matches.keys()),
    (registrationId) => {
      const registration = index.get(registrationId);
      const area = index.areaOf(registrationId);
      return registration !== undefined && area !== undefined && event.touches(registration, area);
    },
    event.approach,
  );
  const notifications: Notification[] = [];
  const toSave: StoredTrackedState[] = [];
  for (const transition of transitions) {
    const registrationId = transition.state.registrationId;
    const held = event.matches.get(registrationId) ?? event.approach.areas.get(registrationId);
    const registration = held?.registration ?? index.get(registrationId);
    const area = held?.area ?? index.areaOf(registrationId);
    const previous = kept.get(registrationId);
    let stated = { entryMs: previous?.entryMs, exitMs: previous?.exitMs };
    if (transition.kind !== 'keep' && registration && area) {
      const id = notificationId(event.eventId, registrationId, transition.stage);
      const payload = event.payload({ registration, area, id, transition, previous });
      notifications.push({
        notificationId: id,
        addressee: addresseeOf(registration),
        eventKind: event.eventKind,
        phase: PHASE[transition.kind],
        eventId: event.eventId,
        stage: transition.stage,
        occurredAtMs: event.occurredAtMs,
        payload,
      });
      stated = { entryMs: secondsField(payload, 'eventStartUtc'), exitMs: secondsField(payload, 'eventEndUtc') };
    }
    toSave.push({
      ...transition.state,
      kind: event.kind,
      ...(stated.entryMs !== undefined ? { entryMs: stated.entryMs } : {}),
      ...(stated.exitMs !== undefined ? { exitMs: stated.exitMs } : {}),
      occurredAtMs: event.occurredAtMs,
      updatedAtMs: nowMs,
    });
  }
  // The complete set: updated states, untouched ones, and none of the removed registrations.
  const updated = new Set(toSave.map((s) => s.registrationId));
  const complete = [...toSave, ...[...kept.values()].filter((s) => !updated.has(s.registrationId))];
  return complete.length > 0 || gone > 0 ? { notifications, states: complete } : { notifications };
}
