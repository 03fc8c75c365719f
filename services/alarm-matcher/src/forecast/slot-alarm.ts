import type { Position } from '@stormhook/geometry';
import type { ForecastRegistration } from '../domain/registration.js';
import type { PreparedPolygon } from '../geometry/prepared-polygon.js';
import { notificationId } from '../lifecycle/notification-id.js';
import { addresseeOf } from '../payloads/addressee.js';
import type { Notification } from '../payloads/notification.js';
import type { CellForecast, CellLocator } from './forecast-cells.js';
import { forecastPayload } from './forecast-payload.js';
import { evaluatedDays, type Slot } from './slots.js';
import { violationsOf } from './violations.js';

/** The cells evaluated for one registration and the reference point of its payload. */
export interface EvaluatedCells {
  cells: CellForecast[];
  reference: Position;
  distanceM: number;
}

/**
 * The grid cells a forecast alarm is evaluated on: the nearest cell within `maxDistanceM` of a POINT;
 * the cells inside a district (`districtShape`: its prepared boundary, undefined while not loaded),
 * or for a district smaller than the grid spacing, the cell nearest to its centroid.
 */
export function cellsFor(
  registration: ForecastRegistration,
  locator: CellLocator,
  districtShape: (districtId: number) => PreparedPolygon | undefined,
  maxDistanceM: number,
): EvaluatedCells | undefined {
  const boundary = registration.boundary;
  if (boundary.type === 'POINT') {
    const point: Position = [boundary.point.lng, boundary.point.lat];
    const nearest = locator.nearest(point, maxDistanceM);
    return nearest && { cells: [nearest.cell], reference: point, distanceM: nearest.distanceM };
  }
  const district = districtShape(boundary.districtId);
  if (!district) return undefined;
  const inside = locator.within(district.bbox).filter((cell) => district.contains(cell.location[0], cell.location[1]));
  if (inside.length > 0) return { cells: inside, reference: district.reference, distanceM: 0 };
  // A district smaller than the grid spacing holds no cell: the cell nearest to its centroid stands in.
  const nearest = locator.nearest(district.reference, maxDistanceM);
  return nearest && { cells: [nearest.cell], reference: district.reference, distanceM: 0 };
}

/** How one slot's evaluation is named and told. */
export interface SlotContext {
  slot: Slot;
  /** Scopes the notification ids: the slot id, or a rerun's claim id (a rerun is new notifications). */
  idScope: string;
  late: boolean;
  evaluatedAtMs: number;
}

/**
 * One forecast alarm at one slot: a notification when at least one threshold of its filter is
 * breached on one of its evaluated days, with the newest forecast run among its cells.
 */
export function slotAlarm(
  registration: ForecastRegistration,
  evaluated: EvaluatedCells,
  context: SlotContext,
  days: readonly number[] = evaluatedDays(context.slot, registration.forecastDays),
): { notification: Notification; run: { runId: string; issueMs: number } | undefined } | undefined {
  const violations = violationsOf(registration.filter, evaluated.cells, days);
  if (violations.length === 0) return undefined;
  const run = evaluated.cells.reduce<{ runId: string; issueMs: number } | undefined>(
    (best, cell) => (!best || cell.issueMs > best.issueMs ? { runId: cell.runId, issueMs: cell.issueMs } : best),
    undefined,
  );
  const eventId = `forecast:${context.idScope}`;
  const id = notificationId(eventId, registration.registrationId, 'forecast');
  return {
    run,
    notification: {
      notificationId: id,
      addressee: addresseeOf(registration),
      eventKind: 'FORECAST',
      phase: 'START',
      eventId,
      stage: 'forecast',
      occurredAtMs: context.slot.timeMs,
      payload: forecastPayload({
        notificationId: id,
        registration,
        slot: context.slot,
        late: context.late,
        evaluatedAtMs: context.evaluatedAtMs,
        reference: evaluated.reference,
        distanceM: evaluated.distanceM,
        run,
        violations,
      }),
    },
  };
}
