import type { RealtimeRegistration } from '../../domain/registration.js';
import { INTENSITIES, SEVERITIES } from '../../domain/weather-enums.js';
import { notificationId } from '../../lifecycle/notification-id.js';
import { decideRevision, type ApproachInput, type CancelReason, type EndReason, type TrackedState, type Transition } from '../../lifecycle/tracked-event.js';
import type { AreaEntry, RegistrationIndex, WatchedArea } from '../../matching/registration-index.js';
import { polygonsWatched, precipitationPasses, rainRank, stormRank, thunderstormPasses } from '../../matching/rules.js';
import type { Rain, Storm } from '../../matching/weather-events.js';
import type { EventProjection } from '../../motion/projection.js';
import { projectRain, projectStorm } from '../../motion/project-revision.js';
import type { TrackMemory } from '../../motion/track-memory.js';
import type { EventKind, Notification, Phase } from '../../payloads/notification.js';
import { precipitationPayload } from '../../payloads/precipitation-payload.js';
import { thunderstormPayload } from '../../payloads/thunderstorm-payload.js';
import type { Clock } from '../../ports/clock.js';
import type { LastRevision, StoredTrackedState, TrackedKind, TrackedStateStore } from '../../ports/tracked-state-store.js';
import { addresseeOf } from './addressee.js';
import { arrivalFacts, centroidArrival } from './tracked-arrival.js';
import type { NotificationDispatcher } from './dispatcher.js';
import { KeyedSerial } from './keyed-serial.js';

const MINUTE = 60_000;

export interface TrackedMatcherDeps {
  index: RegistrationIndex;
  states: TrackedStateStore;
  dispatcher: NotificationDispatcher;
  clock: Clock;
  /** Recent positions of the events this instance matches, for motion when the feed sends no vector. */
  tracks: TrackMemory;
  /** A storm counts as over this long after its (expected) end without a new revision. */
  thunderstormGraceMs: number;
  /** A precipitation area counts as over this long after its last scan without a new revision. */
  precipitationExpiryMs: number;
}

const PHASE: Record<Exclude<Transition['kind'], 'keep'>, Phase> = {
  start: 'START',
  worse: 'UPDATE',
  end: 'END',
  approach: 'APPROACHING',
  cancel: 'APPROACH_CANCELLED',
};

/** What a payload builder is told about one transition. */
interface PayloadInput {
  registration: RealtimeRegistration;
  area: WatchedArea;
  id: string;
  transition: Exclude<Transition, { kind: 'keep' }>;
  /** The registration's stored state before this revision (an END keeps the entry its START stated). */
  previous: StoredTrackedState | undefined;
}

interface Tracked {
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

/** Epoch ms from a payload's epoch-seconds field, if it has one. */
function secondsField(payload: Record<string, unknown>, name: string): number | undefined {
  const value = payload[name];
  return typeof value === 'number' ? value * 1000 : undefined;
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
): Tracked['approach'] {
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
 * Thunderstorm cells and precipitation areas: events updated every few minutes under one id. Each
 * revision is matched against the index, projected along its motion, and run through the lifecycle
 * (APPROACHING before arrival for registrations that asked for it, START, UPDATE when worse, END when
 * it stops affecting a registration); the states are stored per (event, registration).
 */
export class TrackedEventMatcher {
  /** One revision of an event at a time: each reads the states the one before it wrote. */
  private readonly perEvent = new KeyedSerial();

  constructor(private readonly deps: TrackedMatcherDeps) {}

  handleStorm(storm: Storm): Promise<Notification[]> {
    const { index } = this.deps;
    const matches = new Map(index.matchThunderstorm(storm).map((m) => [m.registration.registrationId, m]));
    const projection = projectStorm(storm, this.deps.tracks);
    const path = projection.pathBox();
    const approach = approachesOf(
      projection,
      path && projection.motion ? index.approachCandidates(path, 'thunderstorm') : [],
      (entry) => entry.thunderstormApproach,
      (registration) => registration.filter.thunderstorm?.approach?.leadMinutes,
      (registration) => thunderstormPasses(registration.filter.thunderstorm!, storm, { cell: true, threat: true }),
      matches,
      this.deps.clock.now(),
    );
    return this.process({
      kind: 'THUNDERSTORM',
      eventKind: 'THUNDERSTORM',
      eventId: storm.eventId,
      last: { kind: 'THUNDERSTORM', storm },
      revision: storm.revision,
      rank: stormRank(storm),
      rankName: SEVERITIES[stormRank(storm) - 1] ?? storm.severity,
      occurredAtMs: storm.startMs,
      expiresAtMs: Math.max(storm.endMs, storm.insertedMs) + this.deps.thunderstormGraceMs,
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
    });
  }

  handleRain(rain: Rain): Promise<Notification[]> {
    const { index } = this.deps;
    const matches = new Map(index.matchPrecipitation(rain).map((m) => [m.registration.registrationId, m]));
    const projection = projectRain(rain, this.deps.tracks);
    const path = projection.pathBox();
    const approach = approachesOf(
      projection,
      path && projection.motion ? index.approachCandidates(path, 'precipitation') : [],
      (entry) => entry.precipitationApproach,
      (registration) => registration.filter.precipitation?.approach?.leadMinutes,
      (registration) => precipitationPasses(registration.filter.precipitation!, rain),
      matches,
      this.deps.clock.now(),
    );
    return this.process({
      kind: 'PRECIPITATION',
      eventKind: 'PRECIPITATION',
      eventId: rain.eventId,
      last: { kind: 'PRECIPITATION', rain },
      revision: rain.revision,
      rank: rainRank(rain),
      rankName: INTENSITIES[rainRank(rain) - 1] ?? rain.intensity,
      occurredAtMs: rain.timeMs,
      expiresAtMs: rain.timeMs + this.deps.precipitationExpiryMs,
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
    });
  }

  private process(event: Tracked): Promise<Notification[]> {
    return this.perEvent.run(event.eventId, () => this.processRevision(event));
  }

  private async processRevision(event: Tracked): Promise<Notification[]> {
    const { index, states, dispatcher, clock } = this.deps;
    // Over before it arrived (a backlog, a first start reading the topic history): the sweeper ends
    // whatever it had started; nothing new starts.
    if (event.expiresAtMs <= clock.now()) return [];
    const stored = await states.byEvent(event.eventId);
    if (event.matches.size === 0 && event.approach.within.size === 0 && stored.size === 0) return [];
    // States of registrations removed since: dropped silently (nobody to tell).
    const gone = [...stored.values()].filter((s) => index.get(s.registrationId) === undefined);
    for (const state of gone) stored.delete(state.registrationId);
    const plain = new Map<string, TrackedState>([...stored].map(([id, s]) => [id, s]));
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
    const now = clock.now();
    const notifications: Notification[] = [];
    const toSave: StoredTrackedState[] = [];
    for (const transition of transitions) {
      const registrationId = transition.state.registrationId;
      const held = event.matches.get(registrationId) ?? event.approach.areas.get(registrationId);
      const registration = held?.registration ?? index.get(registrationId);
      const area = held?.area ?? index.areaOf(registrationId);
      const previous = stored.get(registrationId);
      let stated = { entryMs: previous?.entryMs, exitMs: previous?.exitMs };
      if (transition.kind !== 'keep' && registration && area) {
        const id = notificationId(event.eventId, registrationId, transition.stage);
        const phase = PHASE[transition.kind];
        const payload = event.payload({ registration, area, id, transition, previous });
        notifications.push({
          notificationId: id,
          addressee: addresseeOf(registration),
          eventKind: event.eventKind,
          phase,
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
        updatedAtMs: now,
      });
    }
    const sent = await dispatcher.dispatch(notifications);
    // The complete set: updated states, untouched ones, and none of the removed registrations.
    const updated = new Set(toSave.map((s) => s.registrationId));
    const complete = [...toSave, ...[...stored.values()].filter((s) => !updated.has(s.registrationId))];
    if (complete.length > 0 || gone.length > 0) await states.saveEvent(event.eventId, event.kind, complete, now, event.last);
    return sent;
  }
}
