import { distanceM } from '@stormhook/geometry';
import type { WebhookEventType } from '@stormhook/webhooks';
import type { RealtimeRegistration } from '../domain/registration.js';
import { approachStage, LIGHTNING_APPROACH_EVENT } from '../lifecycle/lightning-approach.js';
import { allClearStage, LIGHTNING_EPISODE_EVENT, type LightningActivity } from '../lifecycle/lightning-episode.js';
import { notificationId } from '../lifecycle/notification-id.js';
import { addresseeOf } from '../payloads/addressee.js';
import { lightningAllClearPayload, lightningApproachingPayload, lightningPayload } from '../payloads/lightning-payload.js';
import type { Notification } from '../payloads/notification.js';
import type { StrikeDecision } from './lightning-core.js';

export const STRIKE_STAGE = 'strike';

/**
 * A notification decided but not built yet: what it is (its id's inputs, its type and phase) and how
 * to build its body. Counting callbacks (the back-test's threshold sweep) needs only the first half,
 * and a body costs more than the decision (a hash, a date, a distance).
 */
export interface DecidedNotice {
  registration: RealtimeRegistration;
  eventId: string;
  stage: string;
  phase: Notification['phase'];
  callbackType: WebhookEventType;
  occurredAtMs: number;
  payload(id: string): Record<string, unknown>;
}

export function allClearNotice(registration: RealtimeRegistration, activity: LightningActivity, quietMs: number): DecidedNotice {
  return {
    registration,
    eventId: LIGHTNING_EPISODE_EVENT,
    stage: allClearStage(activity),
    phase: 'ALL_CLEAR',
    callbackType: 'lightning.all_clear',
    occurredAtMs: activity.lastStrikeMs + quietMs,
    payload: (id) =>
      lightningAllClearPayload({ notificationId: id, registrationId: registration.registrationId, recipientId: registration.recipientId, activity, quietMs }),
  };
}

/** What a strike decided, in the order the live path has always sent it: approach notices, all-clears, strikes. */
export function strikeNotices(decision: StrikeDecision, quietMs: number): DecidedNotice[] {
  const { strike } = decision;
  const notices: DecidedNotice[] = [];
  for (const { registration, notice } of decision.approaches) {
    notices.push({
      registration,
      eventId: LIGHTNING_APPROACH_EVENT,
      stage: approachStage(notice.episodeFirstMs),
      phase: 'APPROACHING',
      callbackType: 'lightning.approaching',
      occurredAtMs: strike.timeMs,
      payload: (id) =>
        lightningApproachingPayload({
          notificationId: id,
          registrationId: registration.registrationId,
          recipientId: registration.recipientId,
          strike,
          notice,
          approachRadiusM: registration.filter.lightning!.approachRadiusM!,
        }),
    });
  }
  for (const { registration, activity } of decision.allClears) notices.push(allClearNotice(registration, activity, quietMs));
  for (const { registration, area } of decision.starts) {
    notices.push({
      registration,
      eventId: strike.eventId,
      stage: STRIKE_STAGE,
      phase: 'START',
      callbackType: 'lightning.strike',
      occurredAtMs: strike.timeMs,
      payload: (id) =>
        lightningPayload({
          notificationId: id,
          registrationId: registration.registrationId,
          recipientId: registration.recipientId,
          strike,
          distanceM: distanceM(area.shape.reference, [strike.lng, strike.lat]),
        }),
    });
  }
  return notices;
}

/** The notification of a decided notice: its id (stable per event, registration and stage) and its body. */
export function built(notice: DecidedNotice): Notification {
  const id = notificationId(notice.eventId, notice.registration.registrationId, notice.stage);
  return {
    notificationId: id,
    addressee: addresseeOf(notice.registration),
    eventKind: 'LIGHTNING',
    phase: notice.phase,
    eventId: notice.eventId,
    stage: notice.stage,
    occurredAtMs: notice.occurredAtMs,
    payload: notice.payload(id),
  };
}
