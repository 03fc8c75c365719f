import type { TrackedState } from '../lifecycle/tracked-event.js';
import type { Rain, Storm } from '../matching/weather-events.js';

export type TrackedKind = 'THUNDERSTORM' | 'PRECIPITATION';

/**
 * A registration's state in an event's life: small on purpose. One event can concern thousands of
 * registrations (a storm over a city), and all its states are written at every revision; what the
 * callbacks said is rebuilt from the event's last revision (stored once per event) instead of kept
 * per state.
 */
export interface StoredTrackedState extends TrackedState {
  kind: TrackedKind;
  /** Entry into and exit from the area as the last callback stated them, epoch ms (thunderstorms). */
  entryMs?: number;
  exitMs?: number;
  occurredAtMs: number;
  updatedAtMs: number;
}

/** The event's last revision, as decoded: the base of the END or cancellation sent after it expires. */
export type LastRevision = { kind: 'THUNDERSTORM'; storm: Storm } | { kind: 'PRECIPITATION'; rain: Rain };

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
