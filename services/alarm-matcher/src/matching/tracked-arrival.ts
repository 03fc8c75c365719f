import type { Position } from '@stormhook/geometry';
import type { WatchedArea } from './registration-index.js';
import type { EventProjection, Eta } from '../motion/projection.js';
import type { Phase } from '../payloads/notification.js';

const MINUTE = 60_000;

/** When an event enters and leaves one area, as a callback states it (epoch ms). */
export interface ArrivalFacts {
  /** Entry into the area: predicted ahead of it, reconstructed once inside, as the incumbent defines eventStartUtc. */
  entryMs: number;
  /** Exit from the area: predicted while inside, observed at the END; `fallbackEndMs` when none is predicted within the horizon. */
  exitMs: number;
  eta: Eta | null;
}

/**
 * The entry and exit a callback of `phase` states for one area. `previousEntryMs`: what the last
 * callback of this episode said (an END keeps the entry its START announced). `notBeforeMs`: the
 * event's own start (nothing enters before it exists). `fallbackEndMs`: the event's expected end.
 */
export function arrivalFacts(
  projection: EventProjection,
  area: WatchedArea,
  phase: Phase,
  insideNow: boolean,
  bounds: { notBeforeMs: number; fallbackEndMs: number; previousEntryMs?: number },
): ArrivalFacts {
  const observed = projection.observedMs;
  const crossing = projection.crossingOf(area.key, area.shape);
  if (phase === 'END' || phase === 'APPROACH_CANCELLED') {
    // Left the area: the reconstructed last contact before this observation; otherwise (the filter no
    // longer passes, a cancellation) this observation.
    const exit = crossing?.exitMin !== undefined && crossing.exitMin < 0 ? observed + crossing.exitMin * MINUTE : observed;
    const entry = bounds.previousEntryMs ?? Math.min(exit, observed);
    return { entryMs: Math.round(Math.max(bounds.notBeforeMs, entry)), exitMs: Math.round(Math.max(exit, entry)), eta: null };
  }
  const eta = projection.etaFor(area.key, area.shape, insideNow) ?? null;
  const entry = eta ? eta.arrivalEpochMillis : observed;
  const entryMs = Math.round(Math.max(bounds.notBeforeMs, phase === 'UPDATE' && bounds.previousEntryMs !== undefined ? bounds.previousEntryMs : entry));
  const exitMs = eta?.departureEpochMillis ?? Math.max(bounds.fallbackEndMs, entryMs);
  return { entryMs, exitMs, eta };
}

/** When rain reaches a target point: the predicted time if it does not cover it yet, else undefined (covering now, or not predicted). */
export function centroidArrival(projection: EventProjection, point: Position): number | undefined {
  const at = projection.arrivalAt(point);
  return at !== undefined && at > projection.observedMs ? at : undefined;
}
