import type { Rain, Storm } from '../../domain/weather-events.js';
import type { RegistrationIndex } from '../../matching/registration-index.js';
import { decideTrackedRevision, revisionIsOver } from '../../matching/tracked-core.js';
import { rainRevision, stormRevision, type TrackedRevision, type TrackedSettings } from '../../matching/tracked-revision.js';
import type { TrackMemory } from '../../motion/track-memory.js';
import type { Notification } from '../../payloads/notification.js';
import type { Clock } from '../../ports/clock.js';
import type { TrackedStateStore } from '../../ports/tracked-state-store.js';
import type { NotificationDispatcher } from './dispatcher.js';
import { KeyedSerial } from './keyed-serial.js';

export interface TrackedMatcherDeps extends TrackedSettings {
  index: RegistrationIndex;
  states: TrackedStateStore;
  dispatcher: NotificationDispatcher;
  clock: Clock;
  /** Recent positions of the events this instance matches, for motion when the feed sends no vector. */
  tracks: TrackMemory;
}

/**
 * Thunderstorm cells and precipitation areas, live: events updated every few minutes under one id.
 * The matching core (matching/tracked-core.ts) matches and projects each revision and runs it through
 * the lifecycle; this wrapper reads the event's stored states (one per registration it concerns)
 * before, dispatches the notifications and stores the states after.
 */
export class TrackedEventMatcher {
  /** One revision of an event at a time: each reads the states the one before it wrote. */
  private readonly perEvent = new KeyedSerial();

  constructor(private readonly deps: TrackedMatcherDeps) {}

  handleStorm(storm: Storm): Promise<Notification[]> {
    const { index, tracks, clock } = this.deps;
    return this.process(stormRevision(storm, index, tracks, clock.now(), this.deps));
  }

  handleRain(rain: Rain): Promise<Notification[]> {
    const { index, tracks, clock } = this.deps;
    return this.process(rainRevision(rain, index, tracks, clock.now(), this.deps));
  }

  private process(event: TrackedRevision): Promise<Notification[]> {
    return this.perEvent.run(event.eventId, () => this.processRevision(event));
  }

  private async processRevision(event: TrackedRevision): Promise<Notification[]> {
    const { index, states, dispatcher, clock } = this.deps;
    if (revisionIsOver(event, clock.now())) return [];
    const stored = await states.byEvent(event.eventId);
    const now = clock.now();
    const outcome = decideTrackedRevision(event, stored, index, now);
    if (outcome.notifications.length === 0 && outcome.states === undefined) return [];
    const sent = await dispatcher.dispatch(outcome.notifications);
    if (outcome.states) await states.saveEvent(event.eventId, event.kind, outcome.states, now, event.last);
    return sent;
  }
}
