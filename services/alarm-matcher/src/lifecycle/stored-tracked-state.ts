import type { Rain, Storm } from '../domain/weather-events.js';
import type { TrackedState } from './tracked-event.js';

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
