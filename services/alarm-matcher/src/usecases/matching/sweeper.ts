import type { Logger } from '@stormhook/logger';
import { allClearDueMs } from '../../lifecycle/lightning-episode.js';
import { notificationId } from '../../lifecycle/notification-id.js';
import { decideExpiry } from '../../lifecycle/tracked-event.js';
import type { RegistrationIndex } from '../../matching/registration-index.js';
import type { Notification } from '../../payloads/notification.js';
import type { Clock } from '../../ports/clock.js';
import type { JobLock } from '../../ports/job-lock.js';
import type { LightningActivityStore } from '../../ports/lightning-activity-store.js';
import type { StoredTrackedState, TrackedStateStore } from '../../ports/tracked-state-store.js';
import { addresseeOf } from './addressee.js';
import { expiredPayload } from './expired-payload.js';
import type { NotificationDispatcher } from './dispatcher.js';
import type { LightningEpisodes } from './lightning-episodes.js';
import { allClearNotification } from './lightning-matcher.js';

const BATCH = 500;

/**
 * The time-driven half of the lifecycle: END for thunderstorms and precipitation areas that stopped
 * being updated (EXPIRED), the cancellation of their standing APPROACHING (EXPIRED), and the
 * lightning ALL_CLEAR after the quiet period. Every instance runs it
 * on a timer; a lock per interval lets one of them do the work (the notification ledger would drop
 * the repeats anyway, but two concurrent sweeps could both publish a notification still in flight).
 */
export class LifecycleSweeper {
  constructor(
    private readonly deps: {
      index: RegistrationIndex;
      states: TrackedStateStore;
      activity: LightningActivityStore;
      episodes: LightningEpisodes;
      dispatcher: NotificationDispatcher;
      clock: Clock;
      quietMs: number;
      logger: Logger;
      lock: JobLock;
      /** One sweep per window across all instances. */
      intervalMs: number;
    },
  ) {}

  /** Sweeps unless another instance already swept in this interval. */
  async sweep(): Promise<Notification[]> {
    if (!(await this.deps.lock.acquire('lifecycle-sweep', this.deps.intervalMs, this.deps.clock.now()))) return [];
    return [...(await this.expireTracked()), ...(await this.clearLightning())];
  }

  private async expireTracked(): Promise<Notification[]> {
    const { index, states, dispatcher, clock } = this.deps;
    const now = clock.now();
    const sent: Notification[] = [];
    for (const event of await states.expired(now, BATCH)) {
      const notifications: Notification[] = [];
      const kept: StoredTrackedState[] = [];
      for (const state of event.states) {
        const registration = index.get(state.registrationId);
        if (!registration) continue; // removed since: nobody to tell, state dropped
        const transition = decideExpiry(state, now);
        if (!transition) {
          kept.push(state);
          continue;
        }
        const id = notificationId(state.eventId, state.registrationId, transition.stage);
        const phase = transition.kind === 'end' ? 'END' : 'APPROACH_CANCELLED';
        const reason = transition.kind === 'end' ? { endReason: transition.reason } : { cancelReason: transition.reason };
        const payload = expiredPayload({ id, registration, area: index.areaOf(state.registrationId), state, last: event.last, phase, reason });
        notifications.push({
          notificationId: id,
          addressee: addresseeOf(registration),
          eventKind: state.kind,
          phase,
          eventId: state.eventId,
          stage: transition.stage,
          occurredAtMs: state.occurredAtMs,
          payload,
        });
        kept.push({ ...state, ...transition.state, updatedAtMs: now });
      }
      sent.push(...(await dispatcher.dispatch(notifications)));
      await states.saveEvent(event.eventId, event.kind, kept, now);
    }
    return sent;
  }

  private async clearLightning(): Promise<Notification[]> {
    const { index, activity, episodes, dispatcher, clock, quietMs } = this.deps;
    const now = clock.now();
    // The stored last strike may lag the real one by the episodes' write interval: wait that much longer.
    const margin = episodes.allClearMarginMs;
    const quiet = await activity.quietSince(now - quietMs - margin, BATCH);
    const due = quiet.filter((a) => allClearDueMs(a, quietMs) + margin <= now);
    const notifications: Notification[] = [];
    for (const episode of due) {
      const registration = index.get(episode.registrationId);
      if (registration) notifications.push(allClearNotification(registration, episode, quietMs));
    }
    const sent = await dispatcher.dispatch(notifications);
    for (const episode of due) {
      await activity.close(episode);
      episodes.forget(episode);
    }
    return sent;
  }
}
