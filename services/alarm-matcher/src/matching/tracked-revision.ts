import type { RealtimeRegistration } from '../domain/registration.js';
import { INTENSITIES, SEVERITIES } from '../domain/weather-enums.js';
import type { Rain, Storm } from '../domain/weather-events.js';
import type { LastRevision, StoredTrackedState, TrackedKind } from '../lifecycle/stored-tracked-state.js';
import type { ApproachInput, CancelReason, EndReason, Transition } from '../lifecycle/tracked-event.js';
import type { EventProjection } from '../motion/projection.js';
import { projectRain, projectStorm } from '../motion/project-revision.js';
import type { TrackMemory } from '../motion/track-memory.js';
import type { EventKind, Phase } from '../payloads/notification.js';
import { precipitationPayload } from '../payloads/precipitation-payload.js';
import { thunderstormPayload } from '../payloads/thunderstorm-payload.js';
import type { AreaEntry, RegistrationIndex, WatchedArea } from './registration-index.js';
import { polygonsWatched, precipitationPasses, rainRank, stormRank, thunderstormPasses } from './rules.js';
import { arrivalFacts, centroidArrival } from './tracked-arrival.js';

const MINUTE = 60_000;

/** How long tracked events live without a new revision. */
export interface TrackedSettings {
  /** A storm counts as over this long after its (expected) end without a new revision. */
  thunderstormGraceMs: number;
  /** A precipitation area counts as over this long after its last scan without a new revision. */
  precipitationExpiryMs: number;
}

export const PHASE: Record<Exclude<Transition['kind'], 'keep'>, Phase> = {
  start: 'START',
  worse: 'UPDATE',
  end: 'END',
  approach: 'APPROACHING',
  cancel: 'APPROACH_CANCELLED',
};

/** What a payload builder is told about one transition. */
export interface PayloadInput {
  registration: RealtimeRegistration;
  area: WatchedArea;
  id: string;
  transition: Exclude<Transition, { kind: 'keep' }>;
  /** The registration's stored state before this revision (an END keeps the entry its START stated). */
  previous: StoredTrackedState | undefined;
}

/** One revision of a storm or rain area, matched against the index and projected: the input of the tracked core. */
export interface TrackedRevision {
  kind: TrackedKind;
  eventKind: EventKind;
  eventId: string;
  /** The revision itself, stored once per event: the base of the callbacks sent after it expires. */
  last: LastRevision;
  revision: number;
  rank: number;
  rankName: string;
  occurredAtMs: number;
  expiresAtMs: number;
  /** Registrations the revision matches, with the area each watches. */
  matches: Map<string, { registration: RealtimeRegistration; area: WatchedArea }>;
  /** Registrations with a warning stage that it may reach (see ApproachInput), with their areas. */
  approach: ApproachInput & { areas: Map<string, { registration: RealtimeRegistration; area: WatchedArea }> };
  /** Whether the event still touches the area in the way the registration watches (decides LEFT_AREA vs FILTER_NOT_MET). */
  touches(registration: RealtimeRegistration, area: WatchedArea): boolean;
  payload(input: PayloadInput): Record<string, unknown>;
}

function reasons(transition: PayloadInput['transition']): { endReason?: EndReason; cancelReason?: CancelReason } {
  if (transition.kind === 'end') return { endReason: transition.reason };
  if (transition.kind === 'cancel') return { cancelReason: transition.reason };
  return {};
}

/**
 * Which registrations with a warning stage the projected event reaches: within their lead
 * (`within`), or later within the horizon (`stillPredicted`, which keeps a standing APPROACHING).
 * `passes` applies the rest of the registration's filter (severity, speed, intensity).
 */
function approachesOf(
  projection: EventProjection,
  candidates: readonly AreaEntry[],
  listOf: (entry: AreaEntry) => readonly RealtimeRegistration[],
  leadOf: (registration: RealtimeRegistration) => number | undefined,
  passes: (registration: RealtimeRegistration) => boolean,
  matched: ReadonlyMap<string, unknown>,
  nowMs: number,
): TrackedRevision['approach'] {
  // Leads count from now, not from the observation: a revision read late (a backlog, a first start
  // reading the feed's history) warns only of an arrival still ahead, and no sooner than the lead.
  const lateMin = Math.max(0, (nowMs - projection.observedMs) / MINUTE);
  const within = new Set<string>();
  const predicted = new Set<string>();
  const areas = new Map<string, { registration: RealtimeRegistration; area: WatchedArea }>();
  for (const entry of candidates) {
    let entryMin: number | undefined | null = null; // null: not computed yet for this area
    for (const registration of listOf(entry)) {
      const id = registration.registrationId;
      const lead = leadOf(registration);
      if (lead === undefined || matched.has(id) || !passes(registration)) continue;
      if (entryMin === null) entryMin = projection.entryAhead(entry.key, entry.shape);
      if (entryMin === undefined) break; // the area is not reached: no registration of it is
      predicted.add(id);
      areas.set(id, { registration, area: entry });
      // A decaying cell expected to end before it arrives opens no warning (projection.outlives).
      if (entryMin > lateMin && entryMin - lateMin <= lead && projection.outlives(entryMin)) within.add(id);
    }
  }
  return { within, stillPredicted: (id) => predicted.has(id), areas };
}

/**
 * A storm revision against the index: the registrations it matches, its projection along its motion
 * (which joins the event's track in `tracks`, the motion half of the lifecycle state) and the
 * registrations it is predicted to reach within their lead, counted from `nowMs`.
 */
export function stormRevision(storm: Storm, index: RegistrationIndex, tracks: TrackMemory, nowMs: number, settings: TrackedSettings): TrackedRevision {
  const matches = new Map(index.matchThunderstorm(storm).map((m) => [m.registration.registrationId, m]));
  const projection = projectStorm(storm, tracks);
  const path = projection.pathBox();
  const approach = approachesOf(
    projection,
    path && projection.motion ? index.approachCandidates(path, 'thunderstorm') : [],
    (entry) => entry.thunderstormApproach,
    (registration) => registration.filter.thunderstorm?.approach?.leadMinutes,
    (registration) => thunderstormPasses(registration.filter.thunderstorm!, storm, { cell: true, threat: true }),
    matches,
    nowMs,
  );
  return {
    kind: 'THUNDERSTORM',
    eventKind: 'THUNDERSTORM',
    eventId: storm.eventId,
    last: { kind: 'THUNDERSTORM', storm },
    revision: storm.revision,
    rank: stormRank(storm),
    rankName: SEVERITIES[stormRank(storm) - 1] ?? storm.severity,
    occurredAtMs: storm.startMs,
    expiresAtMs: Math.max(storm.endMs, storm.insertedMs) + settings.thunderstormGraceMs,
    matches,
    approach,
    touches: (registration, area) => {
      const watched = polygonsWatched(registration.filter.thunderstorm ?? {});
      return (
        (watched.cell && storm.cell.polygon.length > 0 && area.shape.intersects(storm.cell.polygon, storm.cell.box)) ||
        (watched.threat && storm.threat.length > 0 && area.shape.intersects(storm.threat, storm.threatBox))
      );
    },
    payload: ({ registration, area, id, transition, previous }) => {
      const phase = PHASE[transition.kind];
      const facts = arrivalFacts(projection, area, phase, matches.has(registration.registrationId), {
        notBeforeMs: storm.startMs,
        fallbackEndMs: storm.endMs,
        ...(previous?.entryMs !== undefined && transition.kind !== 'approach' && transition.kind !== 'start' ? { previousEntryMs: previous.entryMs } : {}),
      });
      return thunderstormPayload({
        notificationId: id,
        registrationId: registration.registrationId,
        recipientId: registration.recipientId,
        storm,
        reference: area.shape.reference,
        phase,
        ...reasons(transition),
        ...facts,
      });
    },
  };
}

/** A precipitation revision against the index, as {@link stormRevision}. */
export function rainRevision(rain: Rain, index: RegistrationIndex, tracks: TrackMemory, nowMs: number, settings: TrackedSettings): TrackedRevision {
  const matches = new Map(index.matchPrecipitation(rain).map((m) => [m.registration.registrationId, m]));
  const projection = projectRain(rain, tracks);
  const path = projection.pathBox();
  const approach = approachesOf(
    projection,
    path && projection.motion ? index.approachCandidates(path, 'precipitation') : [],
    (entry) => entry.precipitationApproach,
    (registration) => registration.filter.precipitation?.approach?.leadMinutes,
    (registration) => precipitationPasses(registration.filter.precipitation!, rain),
    matches,
    nowMs,
  );
  return {
    kind: 'PRECIPITATION',
    eventKind: 'PRECIPITATION',
    eventId: rain.eventId,
    last: { kind: 'PRECIPITATION', rain },
    revision: rain.revision,
    rank: rainRank(rain),
    rankName: INTENSITIES[rainRank(rain) - 1] ?? rain.intensity,
    occurredAtMs: rain.timeMs,
    expiresAtMs: rain.timeMs + settings.precipitationExpiryMs,
    matches,
    approach,
    touches: (_registration, area) => area.shape.intersects(rain.geometry, rain.box),
    payload: ({ registration, area, id, transition }) => {
      const phase = PHASE[transition.kind];
      const ahead = phase === 'START' || phase === 'UPDATE' || phase === 'APPROACHING';
      const eta = ahead ? (projection.etaFor(area.key, area.shape, matches.has(registration.registrationId)) ?? null) : null;
      const arrival = ahead ? centroidArrival(projection, area.shape.reference) : undefined;
      return precipitationPayload({
        notificationId: id,
        registrationId: registration.registrationId,
        recipientId: registration.recipientId,
        rain,
        reference: area.shape.reference,
        phase,
        ...reasons(transition),
        ...(arrival !== undefined ? { centroidArrivalMs: arrival } : {}),
        eta,
      });
    },
  };
}
