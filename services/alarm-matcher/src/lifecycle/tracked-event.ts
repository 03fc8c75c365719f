/**
 * Lifecycle of a tracked weather event (thunderstorm cell, precipitation area) for one registration.
 * The same event is republished with a higher revision every few minutes; the registration hears
 * about it again only when it is new for it (START), has worsened beyond anything notified in this
 * episode (UPDATE), or stopped affecting it (END: left the area, no longer passes the filter, or
 * expired). After an END a new match opens the next episode. Pure: the caller loads and stores the
 * states; stage names feed the notification ids, so a replay recomputes the same ids.
 */
export interface TrackedState {
  eventId: string;
  registrationId: string;
  /** 1-based; +1 each time the event matches again after an END. */
  episode: number;
  active: boolean;
  /** Highest rank notified in this episode (START or UPDATE). */
  rank: number;
  /** Highest revision of the event seen for this registration. */
  lastRevision: number;
  /** When the event counts as over if no revision arrives, epoch ms. */
  expiresAtMs: number;
}

export type EndReason = 'LEFT_AREA' | 'FILTER_NOT_MET' | 'EXPIRED';

export type Transition =
  | { kind: 'start'; stage: string; state: TrackedState }
  | { kind: 'worse'; stage: string; state: TrackedState }
  | { kind: 'end'; stage: string; reason: EndReason; state: TrackedState }
  /** Nothing to notify; the state still moves on (revision, expiry). */
  | { kind: 'keep'; state: TrackedState };

export interface EventRevisionInfo {
  eventId: string;
  revision: number;
  /** Rank of this revision (severity or intensity rank). */
  rank: number;
  /** Name of that rank, for the stage of an UPDATE (e.g. HIGH). */
  rankName: string;
  expiresAtMs: number;
}

function stageName(base: string, episode: number): string {
  return episode > 1 ? `${base}~${episode}` : base;
}

/**
 * Decides what one revision means for every registration involved: those it matches now and those
 * it matched before. `touches(registrationId)` tells, for an END, whether the area is still touched
 * (then the event no longer passes the filter) or not (it left the area).
 */
export function decideRevision(
  event: EventRevisionInfo,
  states: ReadonlyMap<string, TrackedState>,
  matched: ReadonlySet<string>,
  touches: (registrationId: string) => boolean,
): Transition[] {
  const transitions: Transition[] = [];
  for (const registrationId of matched) {
    const state = states.get(registrationId);
    if (state && event.revision <= state.lastRevision) continue; // replay or out of order: already decided
    if (!state || !state.active) {
      const episode = state ? state.episode + 1 : 1;
      transitions.push({
        kind: 'start',
        stage: stageName('start', episode),
        state: {
          eventId: event.eventId,
          registrationId,
          episode,
          active: true,
          rank: event.rank,
          lastRevision: event.revision,
          expiresAtMs: event.expiresAtMs,
        },
      });
    } else if (event.rank > state.rank) {
      transitions.push({
        kind: 'worse',
        stage: stageName(`worse-${event.rankName}`, state.episode),
        state: { ...state, rank: event.rank, lastRevision: event.revision, expiresAtMs: event.expiresAtMs },
      });
    } else {
      transitions.push({ kind: 'keep', state: { ...state, lastRevision: event.revision, expiresAtMs: event.expiresAtMs } });
    }
  }
  for (const [registrationId, state] of states) {
    if (matched.has(registrationId) || event.revision <= state.lastRevision) continue;
    if (!state.active) {
      transitions.push({ kind: 'keep', state: { ...state, lastRevision: event.revision } });
      continue;
    }
    transitions.push({
      kind: 'end',
      stage: stageName('end', state.episode),
      reason: touches(registrationId) ? 'FILTER_NOT_MET' : 'LEFT_AREA',
      state: { ...state, active: false, lastRevision: event.revision, expiresAtMs: event.expiresAtMs },
    });
  }
  return transitions;
}

/** An active state whose event stopped being updated: END with reason EXPIRED. */
export function decideExpiry(state: TrackedState, nowMs: number): Extract<Transition, { kind: 'end' }> | undefined {
  if (!state.active || state.expiresAtMs > nowMs) return undefined;
  return { kind: 'end', stage: stageName('end', state.episode), reason: 'EXPIRED', state: { ...state, active: false } };
}
