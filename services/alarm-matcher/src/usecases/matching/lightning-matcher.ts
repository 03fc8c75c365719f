import { distanceM } from '@stormhook/geometry';
import type { RealtimeRegistration } from '../../domain/registration.js';
import { allClearStage, LIGHTNING_EPISODE_EVENT, type LightningActivity } from '../../lifecycle/lightning-episode.js';
import { notificationId } from '../../lifecycle/notification-id.js';
import type { RegistrationIndex } from '../../matching/registration-index.js';
import type { Strike } from '../../matching/weather-events.js';
import { lightningAllClearPayload, lightningPayload } from '../../payloads/lightning-payload.js';
import type { Notification } from '../../payloads/notification.js';
import type { Clock } from '../../ports/clock.js';
import { addresseeOf } from './addressee.js';
import type { NotificationDispatcher } from './dispatcher.js';
import type { LightningApproaches } from './lightning-approaches.js';
import type { LightningEpisodes } from './lightning-episodes.js';

export const STRIKE_STAGE = 'strike';

export function allClearNotification(registration: RealtimeRegistration, activity: LightningActivity, quietMs: number): Notification {
  const stage = allClearStage(activity);
  const id = notificationId(LIGHTNING_EPISODE_EVENT, registration.registrationId, stage);
  return {
    notificationId: id,
    addressee: addresseeOf(registration),
    eventKind: 'LIGHTNING',
    phase: 'ALL_CLEAR',
    eventId: LIGHTNING_EPISODE_EVENT,
    stage,
    occurredAtMs: activity.lastStrikeMs + quietMs,
    payload: lightningAllClearPayload({
      notificationId: id,
      registrationId: registration.registrationId,
      recipientId: registration.recipientId,
      activity,
      quietMs,
    }),
  };
}

/**
 * One lightning strike: a START notification for every matching registration (once per strike and
 * registration, whatever the replays), and the bookkeeping of lightning episodes for all-clears.
 */
export class LightningMatcher {
  constructor(
    private readonly deps: {
      index: RegistrationIndex;
      episodes: LightningEpisodes;
      /** The approach rings' notices (filter `approachRadius`). */
      approaches: LightningApproaches;
      dispatcher: NotificationDispatcher;
      clock: Clock;
      quietMs: number;
      /** Older strikes are not notified: nobody acts on lightning of hours ago. */
      maxAgeMs: number;
    },
  ) {}

  async handle(strike: Strike): Promise<Notification[]> {
    const { index, episodes, dispatcher, quietMs, clock } = this.deps;
    if (strike.timeMs < clock.now() - this.deps.maxAgeMs) return [];
    const matches = index.matchLightning(strike);
    const ring = index.matchLightningRing(strike);
    if (matches.length === 0 && ring.length === 0) return [];
    const byRegistration = new Map(matches.map((m) => [m.registration.registrationId, m]));
    const notifications: Notification[] = [];
    // A strike older than the quiet period is history (a replay or a long backlog): it is notified,
    // but must not reopen an episode whose all-clear went out already, nor warn of an approach.
    const recent = strike.timeMs + quietMs > clock.now();
    if (recent && ring.length > 0) notifications.push(...(await this.deps.approaches.strike(ring, strike)));
    if (recent && byRegistration.size > 0) {
      for (const ended of await episodes.strike([...byRegistration.keys()], strike.timeMs)) {
        const registration = byRegistration.get(ended.registrationId)?.registration;
        if (registration) notifications.push(allClearNotification(registration, ended, quietMs));
      }
    }
    for (const { registration, area } of byRegistration.values()) {
      const id = notificationId(strike.eventId, registration.registrationId, STRIKE_STAGE);
      notifications.push({
        notificationId: id,
        addressee: addresseeOf(registration),
        eventKind: 'LIGHTNING',
        phase: 'START',
        eventId: strike.eventId,
        stage: STRIKE_STAGE,
        occurredAtMs: strike.timeMs,
        payload: lightningPayload({
          notificationId: id,
          registrationId: registration.registrationId,
          recipientId: registration.recipientId,
          strike,
          distanceM: distanceM(area.shape.reference, [strike.lng, strike.lat]),
        }),
      });
    }
    return dispatcher.dispatch(notifications);
  }
}
