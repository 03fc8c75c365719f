import type { TrackedState } from '../lifecycle/tracked-event.js';

export type TrackedKind = 'THUNDERSTORM' | 'PRECIPITATION';

export interface StoredTrackedState extends TrackedState {
  kind: TrackedKind;
  /** The payload of the last notification, the base of an END after expiry. */
  lastPayload: Record<string, unknown>;
  occurredAtMs: number;
  updatedAtMs: number;
}

/**
 * Lifecycle states of a thunderstorm or precipitation event, one per registration it concerns,
 * kept together per event (one document: read and written by event id).
 */
export interface TrackedStateStore {
  byEvent(eventId: string): Promise<Map<string, StoredTrackedState>>;
  /** Stores the complete set of states of the event (states left out are dropped). */
  saveEvent(eventId: string, kind: TrackedKind, states: readonly StoredTrackedState[], nowMs: number): Promise<void>;
  /** Events with an active state past its expiry, with all their states. */
  expired(nowMs: number, limit: number): Promise<Array<{ eventId: string; kind: TrackedKind; states: StoredTrackedState[] }>>;
  /** Deletes events whose states all ended before `ms`. */
  purgeEndedBefore(ms: number): Promise<number>;
}
