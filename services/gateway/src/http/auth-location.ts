import type { OperationId } from '../routes/operation-ids.js';

export interface QueriedPoint {
  lat: number;
  lng: number;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A {lat, lng} within range, or undefined: malformed points are left to request validation (400). */
function point(value: unknown): QueriedPoint | undefined {
  if (!isObject(value)) return undefined;
  const { lat, lng } = value;
  if (typeof lat !== 'number' || typeof lng !== 'number' || !Number.isFinite(lat) || !Number.isFinite(lng)) return undefined;
  if (lat < -90 || lat > 90 || lng < -180 || lng > 180) return undefined;
  return { lat, lng };
}

const boundaryPoint = (body: Record<string, unknown>): QueriedPoint | undefined => (isObject(body['boundary']) ? point(body['boundary']['point']) : undefined);

/**
 * Where each operation queries a place, read from its JSON body: 4.1 `center`, 4.4 `location`, the
 * `boundary.point` of point alarms and of POINT forecast alarms. These are checked against the
 * subscription's geography; operations not listed here query no single place.
 */
export const LOCATION_OF: Partial<Record<OperationId, (body: Record<string, unknown>) => QueriedPoint | undefined>> = {
  getGeometryByEventIds: (body) => point(body['center']),
  getCurrentForecast: (body) => point(body['location']),
  getPrecipitationsWithin: (body) => point(body['center']),
  getHourlyForecast: (body) => point(body['location']),
  getDailyForecast: (body) => point(body['location']),
  registerPointAlarm: boundaryPoint,
  updatePointAlarm: boundaryPoint,
  registerForecastAlarm: boundaryPoint,
  updateForecastAlarm: boundaryPoint,
};

export function queriedPoint(operationId: OperationId, body: unknown): QueriedPoint | undefined {
  const read = LOCATION_OF[operationId];
  return read && isObject(body) ? read(body) : undefined;
}
