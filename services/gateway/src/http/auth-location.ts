import type { OperationId } from '../contract/operation-ids.js';

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
  locateArea: (body) => point(body['point']),
  getHourlyForecast: (body) => point(body['location']),
  getDailyForecast: (body) => point(body['location']),
  registerPointAlarm: boundaryPoint,
  updatePointAlarm: boundaryPoint,
  registerForecastAlarm: boundaryPoint,
  updateForecastAlarm: boundaryPoint,
  // A back-test's body is the register body: its place is checked as registering it would be.
  backtestPointAlarm: boundaryPoint,
  backtestForecastAlarm: boundaryPoint,
};

export function queriedPoint(operationId: OperationId, body: unknown): QueriedPoint | undefined {
  const read = LOCATION_OF[operationId];
  return read && isObject(body) ? read(body) : undefined;
}

/** A city, district or neighbourhood id as an operation names it. */
export interface QueriedAreaRef {
  level: 'city' | 'district' | 'neighbourhood';
  id: number;
}

/** A positive integer id, or undefined: malformed ids are left to request validation (400). */
function areaId(value: unknown): number | undefined {
  const id = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/**
 * The most specific area of a geometry or ADMINISTRATIVE boundary: its city decides the region. A
 * district named under another city is still judged by its own city (the matcher then refuses the
 * mismatch with a 400), so naming an allowed city cannot smuggle in a district of another.
 */
function boundaryArea(body: Record<string, unknown>): QueriedAreaRef | undefined {
  const boundary = body['boundary'];
  if (!isObject(boundary)) return undefined;
  const neighbourhood = areaId(boundary['neighborhoodId']);
  if (neighbourhood !== undefined) return { level: 'neighbourhood', id: neighbourhood };
  const district = areaId(boundary['districtId']);
  if (district !== undefined) return { level: 'district', id: district };
  const city = areaId(boundary['cityId']);
  return city === undefined ? undefined : { level: 'city', id: city };
}

/** POINT forecast boundaries are points (LOCATION_OF); only ADMINISTRATIVE ones name areas. */
const administrativeArea = (body: Record<string, unknown>): QueriedAreaRef | undefined =>
  isObject(body['boundary']) && body['boundary']['type'] === 'ADMINISTRATIVE' ? boundaryArea(body) : undefined;

/**
 * Operations that name an area by id, in the body or the path: checked against the plan's regions
 * like a queried point. The city lists name no single area: their handlers answer only the cities
 * the plan covers (caller-geography.ts coversCity).
 */
export const AREA_OF: Partial<Record<OperationId, (body: Record<string, unknown>, params: Record<string, unknown>) => QueriedAreaRef | undefined>> = {
  registerGeometryAlarm: boundaryArea,
  updateGeometryAlarm: boundaryArea,
  registerForecastAlarm: administrativeArea,
  updateForecastAlarm: administrativeArea,
  backtestGeometryAlarm: boundaryArea,
  backtestForecastAlarm: administrativeArea,
  getDistrict: (_body, params) => {
    const id = areaId(params['districtId']);
    return id === undefined ? undefined : { level: 'district', id };
  },
  getNeighborhood: (_body, params) => {
    const id = areaId(params['neighborhoodId']);
    return id === undefined ? undefined : { level: 'neighbourhood', id };
  },
};

export function queriedAreaRef(operationId: OperationId, body: unknown, params: Record<string, unknown>): QueriedAreaRef | undefined {
  const read = AREA_OF[operationId];
  return read ? read(isObject(body) ? body : {}, params) : undefined;
}
