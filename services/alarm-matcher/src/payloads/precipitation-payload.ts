import { distanceM, type Position } from '@stormhook/geometry';
import type { Rain } from '../matching/weather-events.js';
import type { EndReason } from '../lifecycle/tracked-event.js';
import { webhookEnvelope } from '@stormhook/webhooks';
import { metres, trackedEventType, type Phase } from './notification.js';

/**
 * Precipitation payload (incumbent 1.5 plus `stage`, `endReason`, `forecast`, `rainRate`, `areaKm2`, and
 * the envelope: `type` precipitation.start|update|end, `payloadVersion`, `timestamp` = timeEpochMillis as ISO 8601):
 * - id: the notification id (echo it in AlarmReceived.id); stage: START, UPDATE (intensity rose) or END.
 * - endReason (END only): LEFT_AREA, FILTER_NOT_MET, EXPIRED (no update for the expiry period).
 * - eventId: the precipitation event (prc_..., the eventId of the precipitation list and geometry operations).
 * - registrationId, recipientId.
 * - timeEpochMillis: radar scan time, or for a nowcast (forecast true) when the rain is predicted, epoch ms UTC.
 * - forecast: true for a nowcast, false for a radar observation.
 * - intensity: DRIZZLE, LIGHT, MODERATE, HEAVY, VERY_HEAVY or EXTREME.
 * - rainRate: millimetres per hour when the publisher sent one, else null.
 * - centroid: {lat, lng} of the precipitation area, decimal degrees.
 * - areaKm2: area covered, km².
 * - distance: metres from the area's centroid to the registration's reference point.
 */
export function precipitationPayload(input: {
  notificationId: string;
  registrationId: string;
  recipientId: string;
  rain: Rain;
  reference: Position;
  phase: Phase;
  endReason?: EndReason;
}): Record<string, unknown> {
  const { rain } = input;
  return {
    ...webhookEnvelope(trackedEventType('precipitation', input.phase), rain.timeMs),
    id: input.notificationId,
    stage: input.phase,
    ...(input.endReason ? { endReason: input.endReason } : {}),
    eventId: rain.eventId,
    registrationId: input.registrationId,
    recipientId: input.recipientId,
    timeEpochMillis: rain.timeMs,
    forecast: rain.forecast,
    intensity: rain.intensity,
    rainRate: rain.rainRateMmPerH ?? null,
    centroid: { lat: rain.centroid[1], lng: rain.centroid[0] },
    areaKm2: rain.areaKm2,
    distance: metres(distanceM(rain.centroid, input.reference)),
  };
}
