import type { RealtimeRegistration } from '../../domain/registration.js';
import { INTENSITIES, SEVERITIES } from '../../domain/weather-enums.js';
import { notificationId } from '../../lifecycle/notification-id.js';
import { decideRevision, type EndReason, type TrackedState, type Transition } from '../../lifecycle/tracked-event.js';
import type { RegistrationIndex, WatchedArea } from '../../matching/registration-index.js';
import { polygonsWatched, rainRank, stormRank } from '../../matching/rules.js';
import type { Rain, Storm } from '../../matching/weather-events.js';
import type { EventKind, Notification, Phase } from '../../payloads/notification.js';
import { precipitationPayload } from '../../payloads/precipitation-payload.js';
import { thunderstormPayload } from '../../payloads/thunderstorm-payload.js';
import type { Clock } from '../../ports/clock.js';
import type { StoredTrackedState, TrackedKind, TrackedStateStore } from '../../ports/tracked-state-store.js';
import { addresseeOf } from './addressee.js';
import type { NotificationDispatcher } from './dispatcher.js';
import { KeyedSerial } from './keyed-serial.js';

export interface TrackedMatcherDeps {
  index: RegistrationIndex;
  states: TrackedStateStore;
  dispatcher: NotificationDispatcher;
  clock: Clock;
  /** A storm counts as over this long after its (expected) end without a new revision. */
  thunderstormGraceMs: number;
  /** A precipitation area counts as over this long after its last scan without a new revision. */
  precipitationExpiryMs: number;
}

const PHASE: Record<Exclude<Transition['kind'], 'keep'>, Phase> = { start: 'START', worse: 'UPDATE', end: 'END' };

interface Tracked {
  kind: TrackedKind;
  eventKind: EventKind;
  eventId: string;
  revision: number;
  rank: number;
  rankName: string;
  occurredAtMs: number;
  expiresAtMs: number;
  /** Registrations the revision matches, with the area each watches. */
  matches: Map<string, { registration: RealtimeRegistration; area: WatchedArea }>;
  /** Whether the event still touches the area in the way the registration watches (decides LEFT_AREA vs FILTER_NOT_MET). */
  touches(registration: RealtimeRegistration, area: WatchedArea): boolean;
  payload(registration: RealtimeRegistration, area: WatchedArea, id: string, phase: Phase, endReason?: EndReason): Record<string, unknown>;
}

/**
 * Thunderstorm cells and precipitation areas: events updated every few minutes under one id. Each
 * revision is matched against the index and run through the lifecycle (START, UPDATE when worse, END
 * when it stops affecting a registration); the states are stored per (event, registration).
 */
export class TrackedEventMatcher {
  /** One revision of an event at a time: each reads the states the one before it wrote. */
  private readonly perEvent = new KeyedSerial();

  constructor(private readonly deps: TrackedMatcherDeps) {}

  handleStorm(storm: Storm): Promise<Notification[]> {
    const matches = new Map(this.deps.index.matchThunderstorm(storm).map((m) => [m.registration.registrationId, m]));
    return this.process({
      kind: 'THUNDERSTORM',
      eventKind: 'THUNDERSTORM',
      eventId: storm.eventId,
      revision: storm.revision,
      rank: stormRank(storm),
      rankName: SEVERITIES[stormRank(storm) - 1] ?? storm.severity,
      occurredAtMs: storm.startMs,
      expiresAtMs: Math.max(storm.endMs, storm.insertedMs) + this.deps.thunderstormGraceMs,
      matches,
      touches: (registration, area) => {
        const watched = polygonsWatched(registration.filter.thunderstorm ?? {});
        return (
          (watched.cell && storm.cell.polygon.length > 0 && area.shape.intersects(storm.cell.polygon, storm.cell.box)) ||
          (watched.threat && storm.threat.length > 0 && area.shape.intersects(storm.threat, storm.threatBox))
        );
      },
      payload: (registration, area, id, phase, endReason) =>
        thunderstormPayload({
          notificationId: id,
          registrationId: registration.registrationId,
          recipientId: registration.recipientId,
          storm,
          reference: area.shape.reference,
          phase,
          ...(endReason ? { endReason } : {}),
        }),
    });
  }

  handleRain(rain: Rain): Promise<Notification[]> {
    const matches = new Map(this.deps.index.matchPrecipitation(rain).map((m) => [m.registration.registrationId, m]));
    return this.process({
      kind: 'PRECIPITATION',
      eventKind: 'PRECIPITATION',
      eventId: rain.eventId,
      revision: rain.revision,
      rank: rainRank(rain),
      rankName: INTENSITIES[rainRank(rain) - 1] ?? rain.intensity,
      occurredAtMs: rain.timeMs,
      expiresAtMs: rain.timeMs + this.deps.precipitationExpiryMs,
      matches,
      touches: (_registration, area) => area.shape.intersects(rain.geometry, rain.box),
      payload: (registration, area, id, phase, endReason) =>
        precipitationPayload({
          notificationId: id,
          registrationId: registration.registrationId,
          recipientId: registration.recipientId,
          rain,
          reference: area.shape.reference,
          phase,
          ...(endReason ? { endReason } : {}),
        }),
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
    if (event.matches.size === 0 && stored.size === 0) return [];
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
    );
    const now = clock.now();
    const notifications: Notification[] = [];
    const toSave: StoredTrackedState[] = [];
    for (const transition of transitions) {
      const registrationId = transition.state.registrationId;
      const registration = event.matches.get(registrationId)?.registration ?? index.get(registrationId);
      const area = event.matches.get(registrationId)?.area ?? index.areaOf(registrationId);
      const previous = stored.get(registrationId);
      let lastPayload = previous?.lastPayload ?? {};
      if (transition.kind !== 'keep' && registration && area) {
        const id = notificationId(event.eventId, registrationId, transition.stage);
        const phase = PHASE[transition.kind];
        const payload = event.payload(registration, area, id, phase, transition.kind === 'end' ? transition.reason : undefined);
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
        lastPayload = payload;
      }
      toSave.push({ ...transition.state, kind: event.kind, lastPayload, occurredAtMs: event.occurredAtMs, updatedAtMs: now });
    }
    const sent = await dispatcher.dispatch(notifications);
    // The complete set: updated states, untouched ones, and none of the removed registrations.
    const updated = new Set(toSave.map((s) => s.registrationId));
    const complete = [...toSave, ...[...stored.values()].filter((s) => !updated.has(s.registrationId))];
    if (complete.length > 0 || gone.length > 0) await states.saveEvent(event.eventId, event.kind, complete, now);
    return sent;
  }
}
