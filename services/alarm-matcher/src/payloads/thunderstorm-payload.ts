import { distanceToMultiPolygonM, type Position } from '@stormhook/geometry';
import type { Storm } from '../domain/weather-events.js';
import type { CancelReason, EndReason } from '../lifecycle/tracked-event.js';
import type { Eta } from '../motion/projection.js';
import { webhookEnvelope } from '@stormhook/webhooks';
import { metres, trackedEventType, type Phase } from './notification.js';
import { pointJson, polygonJson } from './shapes.js';

/**
 * Thunderstorm payload (incumbent 1.4 plus `id`, `stage`, `endReason`, and the envelope: `type`
 * thunderstorm.start|update|end|approaching|approach_cancelled, `payloadVersion`, `timestamp` = when
 * this revision of the storm was observed):
 * - id: the notification id (echo it in AlarmReceived.id); stage: START, UPDATE (severity rose), END,
 *   APPROACHING (predicted to enter within the registration's lead) or APPROACH_CANCELLED.
 * - endReason (END only): LEFT_AREA, FILTER_NOT_MET (still in the area but no longer passing the filter, e.g. severity dropped below the threshold or intensity left the list), EXPIRED.
 * - cancelReason (APPROACH_CANCELLED only): NO_LONGER_PREDICTED, EXPIRED.
 * - thunderstormId: Stormhook's event id (tst_...); eventId: the tracker's id (the public eventId).
 * - registrationId, recipientId.
 * - eventStartUtc, eventEndUtc: entry into and exit from the registered area, epoch SECONDS UTC, as
 *   the incumbent defines them (payload version 2; version 1 sent the storm's lifetime here):
 *   predicted from the storm's motion ahead of it, reconstructed once it is inside, observed at its END.
 *   When no exit is predicted within the horizon, eventEndUtc is the storm's expected end.
 * - stormStartUtc, stormEndUtc: the storm's own start and (expected) end, epoch SECONDS UTC.
 * - eta (START, UPDATE, APPROACHING; null otherwise or when no arrival can be predicted): see Eta.
 * - severity: LOW, MEDIUM or HIGH; threshold: minimum flashes per minute for a thunderstorm.
 * - speedKmh: storm speed, km/h.
 * - distance: metres from the affected (threat) polygon's edge to the reference point (point alarm
 *   centre or area centroid); 0 when the point is under it.
 * - affectedPolygon: {exterior: [{lng, lat}], holes: [[{lng, lat}]]}, decimal degrees; null when none.
 * - cell: {area km², speedKmh, direction degrees clockwise from north (towards), distance metres from
 *   the cell polygon to the reference point (0 inside), centroid {lng, lat}, polygon, flashRates
 *   {inCloud, cloudToGround, total} flashes per minute}.
 */
export function thunderstormPayload(input: {
  notificationId: string;
  registrationId: string;
  recipientId: string;
  storm: Storm;
  reference: Position;
  phase: Phase;
  endReason?: EndReason;
  cancelReason?: CancelReason;
  /** Entry into and exit from the area, epoch ms (see the field list). */
  entryMs: number;
  exitMs: number;
  eta: Eta | null;
}): Record<string, unknown> {
  const { storm, reference } = input;
  const threatDistance = storm.threat.length > 0 ? distanceToMultiPolygonM(reference, storm.threat) : null;
  const cellDistance = storm.cell.polygon.length > 0 ? distanceToMultiPolygonM(reference, storm.cell.polygon) : null;
  return {
    ...webhookEnvelope(trackedEventType('thunderstorm', input.phase), storm.insertedMs),
    id: input.notificationId,
    stage: input.phase,
    ...(input.endReason ? { endReason: input.endReason } : {}),
    ...(input.cancelReason ? { cancelReason: input.cancelReason } : {}),
    thunderstormId: storm.eventId,
    eventId: storm.sourceEventId,
    registrationId: input.registrationId,
    recipientId: input.recipientId,
    eventStartUtc: Math.floor(input.entryMs / 1000),
    eventEndUtc: Math.floor(Math.max(input.exitMs, input.entryMs) / 1000),
    stormStartUtc: Math.floor(storm.startMs / 1000),
    stormEndUtc: Math.floor(storm.endMs / 1000),
    eta: input.eta,
    severity: storm.severity,
    threshold: storm.threshold,
    speedKmh: storm.speedKmh,
    distance: metres(threatDistance ?? cellDistance ?? 0),
    affectedPolygon: polygonJson(storm.threat),
    cell: {
      area: storm.cell.areaKm2,
      speedKmh: storm.cell.speedKmh,
      direction: storm.cell.directionDeg,
      distance: cellDistance === null ? null : metres(cellDistance),
      centroid: pointJson(storm.cell.centroid),
      polygon: polygonJson(storm.cell.polygon),
      flashRates: { ...storm.cell.flashRates },
    },
  };
}
