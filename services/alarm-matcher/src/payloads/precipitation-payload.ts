import { distanceM, type Position } from '@stormhook/geometry';
import type { Rain } from '../domain/weather-events.js';
import type { CancelReason, EndReason } from '../lifecycle/tracked-event.js';
import type { Eta } from '../motion/projection.js';
import { webhookEnvelope } from '@stormhook/webhooks';
import { metres, trackedEventType, type Phase } from './notification.js';

/**
 * Precipitation payload (incumbent 1.5 plus `stage`, `endReason`, `forecast`, `rainRate`, `areaKm2`, and
 * the envelope: `type` precipitation.start|update|end, `payloadVersion`, `timestamp` = timeEpochMillis as ISO 8601):
 * - id: the notification id (echo it in AlarmReceived.id); stage: START, UPDATE (intensity rose), END,
 *   APPROACHING (predicted to reach the area within the registration's lead) or APPROACH_CANCELLED.
 * - endReason (END only): LEFT_AREA, FILTER_NOT_MET, EXPIRED (no update for the expiry period).
 * - cancelReason (APPROACH_CANCELLED only): NO_LONGER_PREDICTED, EXPIRED.
 * - eventId: the precipitation event (prc_..., the eventId of the precipitation list and geometry operations).
 * - registrationId, recipientId.
 * - timeEpochMillis: when the rain is predicted to reach the target's centroid (the point alarm's
 *   centre, the area's centroid), epoch ms UTC, as the incumbent defines it (payload version 2). When
 *   the rain covers the centroid already, or is not predicted to reach it within the horizon, it is the
 *   observation time (below).
 * - observedEpochMillis: radar scan time, or for a nowcast (forecast true) its valid time, epoch ms UTC
 *   (what timeEpochMillis carried in version 1).
 * - eta (START, UPDATE, APPROACHING; null otherwise or when no arrival can be predicted): see Eta.
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
  cancelReason?: CancelReason;
  /** When the rain is predicted to cover the reference point, epoch ms; undefined: covering now or not predicted. */
  centroidArrivalMs?: number;
  eta: Eta | null;
}): Record<string, unknown> {
  const { rain } = input;
  return {
    ...webhookEnvelope(trackedEventType('precipitation', input.phase), rain.timeMs),
    id: input.notificationId,
    stage: input.phase,
    ...(input.endReason ? { endReason: input.endReason } : {}),
    ...(input.cancelReason ? { cancelReason: input.cancelReason } : {}),
    eventId: rain.eventId,
    registrationId: input.registrationId,
    recipientId: input.recipientId,
    timeEpochMillis: input.centroidArrivalMs ?? rain.timeMs,
    observedEpochMillis: rain.timeMs,
    forecast: rain.forecast,
    intensity: rain.intensity,
    rainRate: rain.rainRateMmPerH ?? null,
    centroid: { lat: rain.centroid[1], lng: rain.centroid[0] },
    areaKm2: rain.areaKm2,
    distance: metres(distanceM(rain.centroid, input.reference)),
    eta: input.eta,
  };
}
