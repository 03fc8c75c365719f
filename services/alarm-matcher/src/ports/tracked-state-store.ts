import type { LastRevision, StoredTrackedState, TrackedKind } from '../lifecycle/stored-tracked-state.js';

/**
 * Lifecycle states of a thunderstorm or precipitation event, one per registration it concerns,
 * kept together per event (one document: read and written by event id).
 */
export interface TrackedStateStore {
  byEvent(eventId: string): Promise<Map<string, StoredTrackedState>>;
  /** Stores the complete set of states of the event (states left out are dropped) and its last revision. */
  saveEvent(eventId: string, kind: TrackedKind, states: readonly StoredTrackedState[], nowMs: number, last?: LastRevision): Promise<void>;
  /** Events with an open state past its expiry, with all their states and the last revision stored. */
  expired(nowMs: number, limit: number): Promise<Array<{ eventId: string; kind: TrackedKind; states: StoredTrackedState[]; last?: LastRevision }>>;
  /** Deletes events whose states all ended before `ms`. */
  purgeEndedBefore(ms: number): Promise<number>;
}
