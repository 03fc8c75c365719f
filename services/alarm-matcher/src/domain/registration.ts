import { alarmV1, enumNames } from '@stormhook/proto';
import type { ForecastFilterField } from '@stormhook/webhooks';
import type { Intensity, LightningType, Severity } from './weather-enums.js';

export const REGISTRATION_KINDS = enumNames(alarmV1.RegistrationKind, 'REGISTRATION_KIND_');
export type RegistrationKind = (typeof REGISTRATION_KINDS)[number];

/** The public path segment of each kind, for messages that point the caller to an operation. */
export const KIND_PATH: Readonly<Record<RegistrationKind, string>> = {
  GEOMETRY: 'geometries',
  FORECAST: 'forecasts',
  POINT: 'points',
};

export const KIND_NOUN: Readonly<Record<RegistrationKind, string>> = {
  GEOMETRY: 'geometry alarm',
  FORECAST: 'forecast alarm',
  POINT: 'point alarm',
};

export interface LatLng {
  lat: number;
  lng: number;
}

/** Geometry alarm boundary: the most specific id given decides the area. */
export interface AdministrativeBoundary {
  cityId: number;
  districtId?: number;
  neighborhoodId?: number;
}

export type ForecastBoundary = { type: 'ADMINISTRATIVE'; cityId: number; districtId: number } | { type: 'POINT'; point: LatLng };

export interface Circle {
  point: LatLng;
  radiusM: number;
}

export interface LightningFilter {
  type?: LightningType;
  /** Minimum |peak current| in amperes; the sign given is kept for display only. */
  peakCurrentA?: number;
  /** In-cloud discharges at or below this height (metres above mean sea level). */
  inCloudHeightM?: number;
  /**
   * Width in metres of a ring beyond the area's boundary: strikes inside it and outside the area send
   * one lightning.approaching per episode. Absent: no ring. An extension beyond the public contract.
   */
  approachRadiusM?: number;
}

/**
 * Opt-in early-warning stage: weather passing the rest of the filter that is predicted to enter the
 * area within `leadMinutes` sends an "approaching" notification before START. An extension beyond
 * the public contract, so it is optional and absent means today's behaviour.
 */
export interface ApproachStage {
  /** Minutes ahead of the predicted arrival, an integer from 5 to 60. */
  leadMinutes: number;
}

export interface ThunderstormFilter {
  intersectsAffectedPolygon?: boolean;
  intersectsCellPolygon?: boolean;
  severityThreshold?: Severity;
  speedThresholdKmh?: number;
  /** thunderstorm.approaching / approach_cancelled before START; absent: no warning stage. */
  approach?: ApproachStage;
}

export interface PrecipitationFilter {
  /** Empty: every intensity. */
  intensities: Intensity[];
  /** precipitation.approaching / approach_cancelled before START; absent: no warning stage. */
  approach?: ApproachStage;
}

/** Filter of geometry and point alarms; an absent member means that weather never triggers. */
export interface WeatherFilter {
  lightning?: LightningFilter;
  thunderstorm?: ThunderstormFilter;
  precipitation?: PrecipitationFilter;
}

export { FORECAST_FILTER_FIELDS, type ForecastFilterField } from '@stormhook/webhooks';
/** Threshold names from the table of @stormhook/webhooks (forecast-thresholds.ts); absent: not evaluated. */
export type ForecastFilter = Partial<Record<ForecastFilterField, string>>;

/** MORNING (04:00 UTC) before EVENING (16:00 UTC), the order of the slots in a day. */
export const DELIVERIES = enumNames(alarmV1.ForecastDelivery, 'FORECAST_DELIVERY_');
export type Delivery = (typeof DELIVERIES)[number];

export interface ResolvedAdministrative {
  cityId: number;
  cityName: string;
  districtId: number;
  districtName: string;
}

export interface ResolvedCell {
  cellId: string;
  location: LatLng;
  distanceM: number;
}

interface RegistrationBase {
  registrationId: string;
  accountId: string;
  recipientId: string;
  createdAtMs: number;
  updatedAtMs: number;
  /** 1 when registered, +1 per update; the broadcast applies only newer versions. */
  version: number;
  /** Warnings produced when it was saved. */
  warnings: string[];
}

export interface GeometryRegistration extends RegistrationBase {
  kind: 'GEOMETRY';
  area: AdministrativeBoundary;
  filter: WeatherFilter;
}

export interface PointRegistration extends RegistrationBase {
  kind: 'POINT';
  circle: Circle;
  filter: WeatherFilter;
}

export interface ForecastRegistration extends RegistrationBase {
  kind: 'FORECAST';
  boundary: ForecastBoundary;
  filter: ForecastFilter;
  forecastDays: number;
  delivery: Delivery[];
  /** City and district (ids and names): the boundary's own for ADMINISTRATIVE, resolved for POINT. */
  resolved: ResolvedAdministrative;
  /** POINT only: the grid cell nearest when saved. */
  resolvedCell?: ResolvedCell;
}

export type Registration = GeometryRegistration | PointRegistration | ForecastRegistration;
/** Registrations matched against real-time weather. */
export type RealtimeRegistration = GeometryRegistration | PointRegistration;

export function isRealtime(registration: Registration): registration is RealtimeRegistration {
  return registration.kind !== 'FORECAST';
}

/** Coordinates in the unique key are rounded to about a metre: closer points are the same place. */
function coord(value: number): string {
  return value.toFixed(5);
}

/**
 * The area part of the uniqueness rule "one registration per area per recipientId" (per account and
 * kind). Geometry alarms: the administrative ids; point alarms: point and radius; forecast alarms:
 * district or point.
 */
export function areaKeyOf(
  registration: Pick<GeometryRegistration, 'kind' | 'area'> | Pick<PointRegistration, 'kind' | 'circle'> | Pick<ForecastRegistration, 'kind' | 'boundary'>,
): string {
  switch (registration.kind) {
    case 'GEOMETRY': {
      const { cityId, districtId, neighborhoodId } = registration.area;
      return `adm:${cityId}:${districtId ?? '-'}:${neighborhoodId ?? '-'}`;
    }
    case 'POINT': {
      const { point, radiusM } = registration.circle;
      return `pt:${coord(point.lat)},${coord(point.lng)}:r${Math.round(radiusM)}`;
    }
    case 'FORECAST': {
      const b = registration.boundary;
      return b.type === 'ADMINISTRATIVE' ? `adm:${b.cityId}:${b.districtId}` : `pt:${coord(b.point.lat)},${coord(b.point.lng)}`;
    }
  }
}
