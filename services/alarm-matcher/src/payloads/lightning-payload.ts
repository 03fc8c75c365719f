import type { ApproachNotice } from '../lifecycle/lightning-approach.js';
import type { LightningActivity } from '../lifecycle/lightning-episode.js';
import type { Strike } from '../domain/weather-events.js';
import { webhookEnvelope } from '@stormhook/webhooks';
import { metres } from './notification.js';

/**
 * Lightning strike payload (incumbent 1.3 plus `id`, `stage`, `eventId`, and the envelope of payload
 * version 1: `type` lightning.strike, `payloadVersion`, `timestamp` = the discharge time, ISO 8601):
 * - id: the notification id; echo it in the acknowledgement `AlarmReceived.id`.
 * - stage: always START for a strike.
 * - strikeId: the detection network's id of the discharge; eventId: Stormhook's (ltg_...).
 * - registrationId, recipientId: the registration and the caller's own recipient reference.
 * - timeEpochMillis: time of the discharge, epoch ms UTC.
 * - dischargeType: FLASH_CLOUD_TO_GROUND or FLASH_IN_CLOUD (before payload version 1 it was sent as
 *   `type`, which now names the event for every payload).
 * - latitude, longitude: located point, decimal degrees WGS 84.
 * - peakCurrent: amperes, signed (negative = negative polarity).
 * - inCloudHeight: metres above mean sea level, null for cloud-to-ground.
 * - multiplicity: { strokes: number of strokes in the flash }.
 * - distance: metres from the registration's reference point (point alarm centre, or the
 *   administrative area's centroid) to the discharge.
 */
export function lightningPayload(input: {
  notificationId: string;
  registrationId: string;
  recipientId: string;
  strike: Strike;
  distanceM: number;
}): Record<string, unknown> {
  const { strike } = input;
  return {
    ...webhookEnvelope('lightning.strike', strike.timeMs),
    id: input.notificationId,
    stage: 'START',
    strikeId: strike.sourceEventId,
    eventId: strike.eventId,
    registrationId: input.registrationId,
    recipientId: input.recipientId,
    timeEpochMillis: strike.timeMs,
    dischargeType: strike.type,
    latitude: strike.lat,
    longitude: strike.lng,
    peakCurrent: strike.peakCurrentA,
    inCloudHeight: strike.inCloudHeightM ?? null,
    multiplicity: { strokes: strike.multiplicity },
    distance: metres(input.distanceM),
  };
}

/**
 * Lightning all-clear payload: no matching discharge for the quiet period. Envelope: `type`
 * lightning.all_clear, `timestamp` = the end of the quiet period.
 * - id, registrationId, recipientId: as above; stage: ALL_CLEAR.
 * - timeEpochMillis: when the quiet period ended (last strike + quiet period), epoch ms UTC.
 * - firstStrikeEpochMillis, lastStrikeEpochMillis: the episode that ended, epoch ms UTC.
 * - quietPeriodMinutes: the configured quiet period, minutes.
 */
export function lightningAllClearPayload(input: {
  notificationId: string;
  registrationId: string;
  recipientId: string;
  activity: LightningActivity;
  quietMs: number;
}): Record<string, unknown> {
  const endMs = input.activity.lastStrikeMs + input.quietMs;
  return {
    ...webhookEnvelope('lightning.all_clear', endMs),
    id: input.notificationId,
    stage: 'ALL_CLEAR',
    registrationId: input.registrationId,
    recipientId: input.recipientId,
    timeEpochMillis: endMs,
    firstStrikeEpochMillis: input.activity.firstStrikeMs,
    lastStrikeEpochMillis: input.activity.lastStrikeMs,
    quietPeriodMinutes: input.quietMs / 60_000,
  };
}

/**
 * Lightning approaching payload: discharges in the registration's approach ring (beyond its area,
 * within `approachRadius` of its edge), once per ring episode, on the episode's second ring strike.
 * Envelope: `type` lightning.approaching, `timestamp` = that strike's discharge time.
 * - id, registrationId, recipientId: as above; stage: APPROACHING.
 * - strikeId, eventId, timeEpochMillis, latitude, longitude: the strike that sent it.
 * - distance: metres from the area's edge (a point alarm's circle, an administrative boundary) to it.
 * - nearestDistance: the nearest ring strike of the episode so far, metres from the edge.
 * - closing: true when this strike is nearer to the area than the ring strike before it.
 * - firstStrikeEpochMillis: the episode's first ring strike; strikesInRing: ring strikes counted.
 * - approachRadius: the ring's width, metres, as registered.
 */
export function lightningApproachingPayload(input: {
  notificationId: string;
  registrationId: string;
  recipientId: string;
  strike: Strike;
  notice: ApproachNotice;
  approachRadiusM: number;
}): Record<string, unknown> {
  const { strike, notice } = input;
  return {
    ...webhookEnvelope('lightning.approaching', strike.timeMs),
    id: input.notificationId,
    stage: 'APPROACHING',
    strikeId: strike.sourceEventId,
    eventId: strike.eventId,
    registrationId: input.registrationId,
    recipientId: input.recipientId,
    timeEpochMillis: strike.timeMs,
    latitude: strike.lat,
    longitude: strike.lng,
    distance: metres(notice.distanceM),
    nearestDistance: metres(notice.nearestM),
    closing: notice.closing,
    firstStrikeEpochMillis: notice.episodeFirstMs,
    strikesInRing: notice.strikes,
    approachRadius: input.approachRadiusM,
  };
}
