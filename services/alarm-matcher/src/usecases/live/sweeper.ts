import type { Logger } from '@stormhook/logger';
import { dueAllClears, expireEvent } from '../../matching/expiry-core.js';
import type { RegistrationIndex } from '../../matching/registration-index.js';
import type { Notification } from '../../payloads/notification.js';
import type { Clock } from '../../ports/clock.js';
import type { JobLock } from '../../ports/job-lock.js';
import type { LightningActivityStore } from '../../ports/lightning-activity-store.js';
import type { TrackedStateStore } from '../../ports/tracked-state-store.js';
import type { NotificationDispatcher } from './dispatcher.js';
import type { LightningEpisodes } from './lightning-episodes.js';

const BATCH = 500;

/**
 * The time-driven half of the lifecycle, live: END for thunderstorms and precipitation areas that
 * stopped being updated (EXPIRED), the cancellation of their standing APPROACHING (EXPIRED), and the
 * lightning ALL_CLEAR after the quiet period, decided by the matching core (matching/expiry-core.ts)
 * over what the stores hold. Every instance runs it on a timer; a lock per interval lets one of them
 * do the work (the notification ledger would drop the repeats anyway, but two concurrent sweeps could
 * both publish a notification still in flight).
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
      const { notifications, kept } = expireEvent(event, index, now);
      sent.push(...(await dispatcher.dispatch(notifications)));
      await states.saveEvent(event.eventId, event.kind, kept, now);
    }
    return sent;
  }

  private async clearLightning(): Promise<Notification[]> {
    const { index, activity, episodes, dispatcher, clock, quietMs } = this.deps;
    const now = clock.now();
    const margin = episodes.allClearMarginMs;
    const quiet = await activity.quietSince(now - quietMs - margin, BATCH);
    const { due, notifications } = dueAllClears(quiet, index, now, quietMs, margin);
    const sent = await dispatcher.dispatch(notifications);
    for (const episode of due) {
      await activity.close(episode);
      episodes.forget(episode);
    }
    return sent;
  }
}
