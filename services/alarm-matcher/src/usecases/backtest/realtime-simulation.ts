import type { WeatherRecord } from '../../decoding/history-records.js';
import type { Strike } from '../../domain/weather-events.js';
import type { LightningActivity } from '../../lifecycle/lightning-episode.js';
import type { LastRevision, StoredTrackedState, TrackedKind } from '../../lifecycle/stored-tracked-state.js';
import { isOpen } from '../../lifecycle/tracked-event.js';
import { dueAllClears, expireEvent } from '../../matching/expiry-core.js';
import { forgetEpisode } from '../../matching/episode-book.js';
import { decideStrike, ringListeners, RingTrails, strikeCandidates, type LightningSettings, type LightningState } from '../../matching/lightning-core.js';
import { strikeNotices } from '../../matching/lightning-notices.js';
import type { RegistrationIndex } from '../../matching/registration-index.js';
import { decideTrackedRevision, revisionIsOver } from '../../matching/tracked-core.js';
import { rainRevision, stormRevision, type TrackedRevision, type TrackedSettings } from '../../matching/tracked-revision.js';
import { TrackMemory } from '../../motion/track-memory.js';
import type { Notification } from '../../payloads/notification.js';
import { ClaimedIds, fromNotice, fromNotification, type SimulatedCallback } from './simulated-callback.js';

export interface RealtimeSettings extends TrackedSettings, LightningSettings {
  /** The live sweeper's interval: ENDs and all-clears go out at its first tick after they are due. */
  sweepIntervalMs: number;
}

/** What the stores of the live path would hold for one event. */
interface SimulatedEvent {
  kind: TrackedKind;
  states: Map<string, StoredTrackedState>;
  last?: LastRevision;
}

/**
 * The live real-time path replayed in memory on a simulated clock: each record is decided by the
 * matching core at the time the live path saw it (its ingestion time), and the sweeper runs at every
 * tick of its interval at which something falls due. What the live stores would hold (tracked states,
 * stored lightning episodes, the ledger of notification ids) is held here, written and read as the
 * live wrappers write and read it, so the same records give the same callbacks.
 */
export class RealtimeSimulation {
  private readonly tracks = new TrackMemory();
  private readonly events = new Map<string, SimulatedEvent>();
  private readonly lightning: LightningState = { area: new Map(), ring: new Map(), trails: new RingTrails() };
  /** The episodes as written to the store (the sweeper reads these; they lag the book by less than the write interval). */
  private readonly storedArea = new Map<string, LightningActivity>();
  private readonly storedRing = new Map<string, LightningActivity>();
  /** Notification ids claimed: a second decision of one id is dropped, as the ledger drops it. */
  private readonly claimed = new ClaimedIds();
  private readonly callbacks: SimulatedCallback[] = [];
  /** The next time a sweep has work, kept until a decision changes the states or episodes. */
  private dueMs: number | undefined;
  /** The last tick swept: ticks only move on, as the live sweeper's timer does. */
  private sweptMs = -Infinity;

  constructor(
    private readonly index: RegistrationIndex,
    private readonly settings: RealtimeSettings,
  ) {}

  /** Runs the records (in ingestion order) and the sweeps until `toMs`; answers the callbacks in time order. */
  run(records: readonly WeatherRecord[], toMs: number): SimulatedCallback[] {
    for (const record of records) {
      this.sweepUntil(record.ingestedMs);
      const now = record.ingestedMs;
      if (record.kind === 'LIGHTNING') this.strike(record.strike, now);
      else if (record.kind === 'THUNDERSTORM') this.tracked(stormRevision(record.storm, this.index, this.tracks, now, this.settings), now);
      else if (record.kind === 'PRECIPITATION') this.tracked(rainRevision(record.rain, this.index, this.tracks, now, this.settings), now);
    }
    this.sweepUntil(toMs - 1);
    return this.callbacks;
  }

  private emit(callback: SimulatedCallback): void {
    if (this.claimed.claim(callback)) this.callbacks.push(callback);
  }

  private emitAll(notifications: readonly Notification[], atMs: number): void {
    for (const notification of notifications) this.emit(fromNotification(notification, atMs));
  }

  private strike(strike: Strike, now: number): void {
    const candidates = strikeCandidates(this.index, strike, now, this.settings);
    if (!candidates) return;
    if (candidates.recent) {
      this.load(
        this.lightning.area,
        this.storedArea,
        candidates.matches.map((m) => m.registration.registrationId),
      );
      this.load(
        this.lightning.ring,
        this.storedRing,
        ringListeners(candidates, this.lightning.area, this.settings.quietMs).map((m) => m.registration.registrationId),
      );
    }
    const decision = decideStrike(candidates, this.lightning, this.settings);
    for (const activity of decision.ringSaves) this.storedRing.set(activity.registrationId, activity);
    for (const activity of decision.areaSaves) this.storedArea.set(activity.registrationId, activity);
    if (decision.areaSaves.length > 0) this.dueMs = undefined;
    for (const notice of strikeNotices(decision, this.settings.quietMs)) this.emit(fromNotice(notice, now));
  }

  /** Reads stored episodes into the book for registrations it does not hold (the live LightningEpisodes.load). */
  private load(book: LightningState['area'], stored: ReadonlyMap<string, LightningActivity>, ids: readonly string[]): void {
    for (const id of ids) {
      const activity = stored.get(id);
      if (!book.has(id) && activity) book.set(id, { activity, persistedLastMs: activity.lastStrikeMs });
    }
  }

  private tracked(event: TrackedRevision, now: number): void {
    if (revisionIsOver(event, now)) return;
    const held = this.events.get(event.eventId);
    const outcome = decideTrackedRevision(event, held?.states ?? new Map(), this.index, now);
    this.emitAll(outcome.notifications, now);
    if (outcome.states) {
      this.events.set(event.eventId, { kind: event.kind, states: new Map(outcome.states.map((s) => [s.registrationId, s])), last: event.last });
      this.dueMs = undefined;
    }
  }

  /** When the next sweep has something to do: the earliest open state's expiry, the earliest stored episode's all-clear. */
  private nextDueMs(): number {
    if (this.dueMs !== undefined) return this.dueMs;
    let due = Infinity;
    for (const event of this.events.values()) for (const state of event.states.values()) if (isOpen(state)) due = Math.min(due, state.expiresAtMs);
    const margin = this.settings.persistEveryMs;
    for (const activity of this.storedArea.values()) due = Math.min(due, activity.lastStrikeMs + this.settings.quietMs + margin);
    this.dueMs = due;
    return due;
  }

  /** Runs the sweeper at each tick up to `untilMs` at which something is due (the ticks between find nothing). */
  private sweepUntil(untilMs: number): void {
    const interval = this.settings.sweepIntervalMs;
    for (;;) {
      const due = this.nextDueMs();
      if (!Number.isFinite(due)) return;
      const tick = Math.max(Math.ceil(due / interval) * interval, this.sweptMs + interval);
      if (tick > untilMs) return;
      this.sweptMs = tick;
      this.sweepAt(tick);
    }
  }

  /** One sweep as the live sweeper runs it: tracked expiries first, then the lightning all-clears. */
  private sweepAt(now: number): void {
    this.dueMs = undefined;
    for (const [eventId, event] of this.events) {
      if (![...event.states.values()].some((s) => isOpen(s) && s.expiresAtMs <= now)) continue;
      const { notifications, kept } = expireEvent(
        { eventId, kind: event.kind, states: [...event.states.values()], ...(event.last ? { last: event.last } : {}) },
        this.index,
        now,
      );
      this.emitAll(notifications, now);
      event.states = new Map(kept.map((s) => [s.registrationId, s]));
    }
    const { quietMs, persistEveryMs } = this.settings;
    const quiet = [...this.storedArea.values()].filter((a) => a.lastStrikeMs <= now - quietMs - persistEveryMs);
    const { due, notifications } = dueAllClears(quiet, this.index, now, quietMs, persistEveryMs);
    this.emitAll(notifications, now);
    for (const episode of due) {
      const stored = this.storedArea.get(episode.registrationId);
      if (stored && stored.firstStrikeMs === episode.firstStrikeMs && stored.lastStrikeMs === episode.lastStrikeMs)
        this.storedArea.delete(episode.registrationId);
      forgetEpisode(this.lightning.area, episode);
    }
  }
}
