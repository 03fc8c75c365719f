import { bboxOfMultiPolygon, centroidOf, type MultiPolygon } from '@stormhook/geometry';
import { square } from '@stormhook/geometry/testing';
import type { GeometryRegistration, PointRegistration, WeatherFilter } from '../domain/registration.js';
import type { Rain, Storm, Strike } from '../domain/weather-events.js';

let counter = 0;

export function pointRegistration(
  lng: number,
  lat: number,
  radiusM: number,
  filter: WeatherFilter,
  overrides: Partial<PointRegistration> = {},
): PointRegistration {
  counter++;
  return {
    registrationId: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    accountId: 'acc-1',
    recipientId: `recipient-${counter}`,
    createdAtMs: 1,
    updatedAtMs: 1,
    version: 1,
    warnings: [],
    kind: 'POINT',
    circle: { point: { lng, lat }, radiusM },
    filter,
    ...overrides,
  };
}

export function geometryRegistration(districtId: number, filter: WeatherFilter, overrides: Partial<GeometryRegistration> = {}): GeometryRegistration {
  counter++;
  return {
    registrationId: `00000000-0000-4000-9000-${String(counter).padStart(12, '0')}`,
    accountId: 'acc-1',
    recipientId: `recipient-${counter}`,
    createdAtMs: 1,
    updatedAtMs: 1,
    version: 1,
    warnings: [],
    kind: 'GEOMETRY',
    area: { cityId: 1, districtId },
    filter,
    ...overrides,
  };
}

export function strike(lng: number, lat: number, overrides: Partial<Strike> = {}): Strike {
  counter++;
  return {
    eventId: `ltg_${counter}`,
    sourceEventId: `src-${counter}`,
    revision: 1,
    timeMs: 1_700_000_000_000,
    type: 'FLASH_CLOUD_TO_GROUND',
    lng,
    lat,
    peakCurrentA: -25_000,
    multiplicity: 2,
    ...overrides,
  };
}

export function storm(cell: MultiPolygon, threat: MultiPolygon, overrides: Partial<Storm> = {}): Storm {
  counter++;
  return {
    eventId: `tst_${counter}`,
    sourceEventId: `EAF${counter}`,
    revision: 1,
    insertedMs: 1_700_000_000_000,
    observedMs: 1_700_000_000_000,
    startMs: 1_700_000_000_000,
    endMs: 1_700_000_600_000,
    severity: 'MEDIUM',
    threshold: 3,
    speedKmh: 30,
    meta: { country: 'TR', state: '', city: '' },
    cell: {
      areaKm2: 9,
      speedKmh: 30,
      directionDeg: 90,
      flashRates: { inCloud: 4, cloudToGround: 1, total: 5 },
      centroid: centroidOf(cell.length > 0 ? cell : threat),
      polygon: cell,
      box: bboxOfMultiPolygon(cell),
    },
    threat,
    threatBox: bboxOfMultiPolygon(threat),
    ...overrides,
  };
}

export function rain(geometry: MultiPolygon, overrides: Partial<Rain> = {}): Rain {
  counter++;
  return {
    eventId: `prc_${counter}`,
    sourceEventId: `p-${counter}`,
    revision: 1,
    timeMs: 1_700_000_000_000,
    forecast: false,
    intensity: 'MODERATE',
    geometry,
    box: bboxOfMultiPolygon(geometry),
    centroid: centroidOf(geometry),
    areaKm2: 20,
    ...overrides,
  };
}

export { square };
