import type { Position } from '@stormhook/geometry';
import type { ForecastRegistration } from '../domain/registration.js';
import type { Slot } from './slots.js';
import type { Violation } from './violations.js';
import { webhookEnvelope } from '@stormhook/webhooks';
import { metres } from '../payloads/notification.js';

/**
 * Forecast alarm payload (incumbent 1.6 plus `delivery`, `scheduledTime`, `late`, `forecastRunId`,
 * `forecastIssueTime`, and the envelope: `type` forecast.alarm, `payloadVersion`, `timestamp` = the slot time):
 * - id: the notification id (echo it in AlarmReceived.id); registrationId, recipientId.
 * - notificationTime: when the slot was evaluated, ISO 8601 UTC with Z.
 * - delivery: MORNING or EVENING; scheduledTime: the slot time (04:00 or 16:00 UTC), ISO 8601;
 *   late: true when the slot was evaluated after downtime (caught up once).
 * - latitude, longitude: ADMINISTRATIVE: the district's centroid; POINT: the registered point.
 * - cityId, districtId: the district evaluated (POINT: the district containing the point).
 * - city, district: names for ADMINISTRATIVE; null for POINT (as the incumbent).
 * - distance: POINT: metres from the point to the forecast grid cell used; ADMINISTRATIVE: 0 (each
 *   forecast value names its cell).
 * - forecastRunId, forecastIssueTime: the newest forecast run among the cells used (ISO 8601).
 * - violations: one per breached threshold: {metric (PRECIPITATION | SNOWFALL | WIND_GUSTS_MAX |
 *   TEMPERATURE_MAX | TEMPERATURE_MIN), unit (mm | cm | km/h | °C), threshold (name), thresholdValue,
 *   comparison (>= or <=), forecasts: [{time: UTC day ISO, value, cellId, latitude, longitude}]},
 *   breaching days only.
 */
export function forecastPayload(input: {
  notificationId: string;
  registration: ForecastRegistration;
  slot: Slot;
  late: boolean;
  evaluatedAtMs: number;
  reference: Position;
  distanceM: number;
  run: { runId: string; issueMs: number } | undefined;
  violations: Violation[];
}): Record<string, unknown> {
  const { registration } = input;
  const administrative = registration.boundary.type === 'ADMINISTRATIVE';
  return {
    ...webhookEnvelope('forecast.alarm', input.slot.timeMs),
    id: input.notificationId,
    registrationId: registration.registrationId,
    recipientId: registration.recipientId,
    notificationTime: new Date(input.evaluatedAtMs).toISOString(),
    delivery: input.slot.delivery,
    scheduledTime: new Date(input.slot.timeMs).toISOString(),
    late: input.late,
    latitude: input.reference[1],
    longitude: input.reference[0],
    cityId: registration.resolved.cityId,
    city: administrative ? registration.resolved.cityName : null,
    districtId: registration.resolved.districtId,
    district: administrative ? registration.resolved.districtName : null,
    distance: administrative ? 0 : metres(input.distanceM),
    forecastRunId: input.run?.runId ?? null,
    forecastIssueTime: input.run ? new Date(input.run.issueMs).toISOString() : null,
    violations: input.violations,
  };
}
