/**
 * Lifecycle of a tracked weather event (thunderstorm cell, precipitation area) for one registration.
 * The same event is republished with a higher revision every few minutes; the registration hears
 * about it again only when it is new for it (START), has worsened beyond anything notified in this
 * episode (UPDATE), or stopped affecting it (END: left the area, no longer passes the filter, or
 * expired). After an END a new match opens the next episode. A registration that asked for a warning
 * stage hears APPROACHING before its START when the event is predicted to enter its area within its
 * lead, and APPROACH_CANCELLED when a later revision no longer predicts an entry at all (a prediction
 * that only moves later keeps the warning). Pure: the caller loads and stores the states; stage names
 * feed the notification ids, so a replay recomputes the same ids.
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
  /** An APPROACHING was sent and neither its START nor a cancellation has followed yet. */
  approaching?: boolean;
  /** APPROACHING notices sent to the registration for this event (names the next one's stage). */
  approaches?: number;
}

export type EndReason = 'LEFT_AREA' | 'FILTER_NOT_MET' | 'EXPIRED';
/** Why an APPROACHING was withdrawn: no entry predicted any more (it turned, slowed or weakened), or the event stopped being updated. */
export type CancelReason = 'NO_LONGER_PREDICTED' | 'EXPIRED';

export type Transition =
  | { kind: 'start'; stage: string; state: TrackedState }
  | { kind: 'worse'; stage: string; state: TrackedState }
  | { kind: 'end'; stage: string; reason: EndReason; state: TrackedState }
  | { kind: 'approach'; stage: string; state: TrackedState }
  | { kind: 'cancel'; stage: string; reason: CancelReason; state: TrackedState }
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

/** What the projection of a revision says about registrations it does not touch yet. */
export interface ApproachInput {
  /** Registrations with a warning stage that the event, passing their filter, is predicted to enter within their lead. */
  within: ReadonlySet<string>;
  /** Whether an entry (passing the filter) is still predicted within the horizon: keeps an APPROACHING standing. */
  stillPredicted(registrationId: string): boolean;
}

const NO_APPROACH: ApproachInput = { within: new Set(), stillPredicted: () => false };

function approachTransition(event: EventRevisionInfo, registrationId: string, state: TrackedState | undefined): Transition {
  const approaches = (state?.approaches ?? 0) + 1;
  return {
    kind: 'approach',
    stage: stageName('approach', approaches),
    state: {
      eventId: event.eventId,
      registrationId,
      episode: state?.episode ?? 0,
      active: false,
      rank: state?.rank ?? 0,
      lastRevision: event.revision,
      expiresAtMs: event.expiresAtMs,
      approaching: true,
      approaches,
    },
  };
}

function cancelTransition(state: TrackedState, reason: CancelReason, revision: number): Extract<Transition, { kind: 'cancel' }> {
  return {
    kind: 'cancel',
    stage: stageName('approach-cancelled', state.approaches ?? 1),
    reason,
    state: { ...state, approaching: false, lastRevision: revision },
  };
}

/**
 * Decides what one revision means for every registration involved: those it matches now, those it
 * matched or approached before, and those it is predicted to reach. `touches(registrationId)` tells,
 * for an END, whether the area is still touched (then the event no longer passes the filter) or not
 * (it left the area).
 */
export function decideRevision(
  event: EventRevisionInfo,
  states: ReadonlyMap<string, TrackedState>,
  matched: ReadonlySet<string>,
  touches: (registrationId: string) => boolean,
  approach: ApproachInput = NO_APPROACH,
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
          // The warning, if any, is answered by this START.
          approaching: false,
          approaches: state?.approaches ?? 0,
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
      if (state.approaching && !approach.within.has(registrationId) && !approach.stillPredicted(registrationId)) {
        transitions.push(cancelTransition(state, 'NO_LONGER_PREDICTED', event.revision));
      } else if (!state.approaching && approach.within.has(registrationId)) {
        transitions.push(approachTransition(event, registrationId, state));
      } else {
        transitions.push({ kind: 'keep', state: { ...state, lastRevision: event.revision, expiresAtMs: event.expiresAtMs } });
      }
      continue;
    }
    transitions.push({
      kind: 'end',
      stage: stageName('end', state.episode),
      reason: touches(registrationId) ? 'FILTER_NOT_MET' : 'LEFT_AREA',
      state: { ...state, active: false, lastRevision: event.revision, expiresAtMs: event.expiresAtMs },
    });
  }
  for (const registrationId of approach.within) {
    if (matched.has(registrationId) || states.has(registrationId)) continue;
    transitions.push(approachTransition(event, registrationId, undefined));
  }
  return transitions;
}

/** Whether a state still waits for something: an END (active) or a START or cancellation (approaching). */
export function isOpen(state: TrackedState): boolean {
  return state.active || state.approaching === true;
}

/**
 * A state whose event stopped being updated: END with reason EXPIRED when it was active, the
 * cancellation of its APPROACHING (EXPIRED) when it was only approaching.
 */
export function decideExpiry(state: TrackedState, nowMs: number): Extract<Transition, { kind: 'end' | 'cancel' }> | undefined {
  if (!isOpen(state) || state.expiresAtMs > nowMs) return undefined;
  if (!state.active) return cancelTransition(state, 'EXPIRED', state.lastRevision);
  return { kind: 'end', stage: stageName('end', state.episode), reason: 'EXPIRED', state: { ...state, active: false } };
}
