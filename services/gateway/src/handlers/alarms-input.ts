import { alarmV1, type DeepPartial, type identityV1, type notificationV1, type weatherV1 } from '@stormhook/proto';
import type { AlarmKind } from '../schemas/alarms.js';
import type { PublicWebhookInput } from './webhook-mapping.js';

/**
 * The public alarm-registration JSON (interface.md 2.3 to 2.5, already schema-checked) as the
 * alarm-matcher's messages. Only the shape changes here: units and rules are the matcher's (it
 * validates everything again and names the public field in its 400s), so a field the public
 * contract leaves out stays out rather than getting a default.
 */

export interface GeoPointJson {
  lng: number;
  lat: number;
}

export interface GeometryBoundaryJson {
  type?: 'ADMINISTRATIVE';
  cityId: number;
  districtId?: number;
  neighborhoodId?: number;
}

export type ForecastBoundaryJson = { type: 'ADMINISTRATIVE'; cityId: number; districtId: number } | { type: 'POINT'; point: GeoPointJson };

export interface PointBoundaryJson {
  point: GeoPointJson;
  /** Metres. */
  radius: number;
}

export interface WeatherFilterJson {
  lightning?: { type?: string; peakCurrent?: number; inCloudHeight?: number };
  thunderstorm?: { intersectsAffectedPolygon?: boolean; intersectsCellPolygon?: boolean; severityThreshold?: string; speedThreshold?: number };
  precipitation?: { intensities?: string[] };
}

export type ForecastFilterJson = Partial<Record<keyof alarmV1.ForecastAlarmFilter, string>>;

/** A register or update body of any kind; which boundary and filter it holds follows the route. */
export interface RegistrationJson {
  registrationId?: string;
  recipientId: string;
  boundary: GeometryBoundaryJson | ForecastBoundaryJson | PointBoundaryJson;
  webhook: PublicWebhookInput;
  filter: WeatherFilterJson | ForecastFilterJson;
  forecastDays?: number;
  forecastAlarmDelivery?: string[];
}

export interface PageJson {
  pageNumber?: number;
  pageSize?: number;
  filterByRecipientIds?: string[];
  accountId?: string;
  filterByBoundary?: GeometryBoundaryJson | ForecastBoundaryJson;
  /** Point alarms: a closed ring of [lng, lat] pairs. */
  filterByPolygonIntersection?: number[][];
}

export const KIND_OF_ROUTE: Readonly<Record<AlarmKind, alarmV1.RegistrationKind>> = {
  geometries: 'REGISTRATION_KIND_GEOMETRY',
  forecasts: 'REGISTRATION_KIND_FORECAST',
  points: 'REGISTRATION_KIND_POINT',
};

/** Page size of the lists when the caller sends none (the matcher's default too). */
export const DEFAULT_PAGE_SIZE = 20;

const prefixed = <T extends string>(prefix: string, value: string | undefined): T | undefined =>
  value === undefined ? undefined : (`${prefix}${value}` as T);

function geometryBoundary(b: GeometryBoundaryJson): alarmV1.GeometryBoundary {
  return alarmV1.GeometryBoundary.create({
    cityId: b.cityId,
    ...(b.districtId !== undefined ? { districtId: b.districtId } : {}),
    ...(b.neighborhoodId !== undefined ? { neighborhoodId: b.neighborhoodId } : {}),
  });
}

function forecastBoundary(b: ForecastBoundaryJson): alarmV1.ForecastBoundary {
  return alarmV1.ForecastBoundary.create(
    b.type === 'POINT'
      ? { point: { lng: b.point.lng, lat: b.point.lat } }
      : { administrative: { cityId: b.cityId, districtId: b.districtId } },
  );
}

function weatherFilter(filter: WeatherFilterJson): DeepPartial<alarmV1.WeatherAlarmFilter> {
  const { lightning, thunderstorm, precipitation } = filter;
  return {
    ...(lightning
      ? {
          lightning: {
            type: prefixed<weatherV1.LightningType>('LIGHTNING_TYPE_', lightning.type) ?? 'LIGHTNING_TYPE_UNSPECIFIED',
            ...(lightning.peakCurrent !== undefined ? { peakCurrentAmperes: lightning.peakCurrent } : {}),
            ...(lightning.inCloudHeight !== undefined ? { inCloudHeightM: lightning.inCloudHeight } : {}),
          },
        }
      : {}),
    ...(thunderstorm
      ? {
          thunderstorm: {
            ...(thunderstorm.intersectsAffectedPolygon !== undefined ? { intersectsAffectedPolygon: thunderstorm.intersectsAffectedPolygon } : {}),
            ...(thunderstorm.intersectsCellPolygon !== undefined ? { intersectsCellPolygon: thunderstorm.intersectsCellPolygon } : {}),
            severityThreshold:
              prefixed<weatherV1.ThunderstormSeverity>('THUNDERSTORM_SEVERITY_', thunderstorm.severityThreshold) ?? 'THUNDERSTORM_SEVERITY_UNSPECIFIED',
            ...(thunderstorm.speedThreshold !== undefined ? { speedThresholdKmh: thunderstorm.speedThreshold } : {}),
          },
        }
      : {}),
    ...(precipitation
      ? {
          precipitation: {
            intensities: (precipitation.intensities ?? []).map((i) => `PRECIPITATION_INTENSITY_${i}` as weatherV1.PrecipitationIntensity),
          },
        }
      : {}),
  };
}

/**
 * The registration as the matcher's AlarmRegistrationInput. `webhookConfig` is the public webhook
 * already mapped with toEndpointConfig (absent when the request carries only webhook.accountId).
 */
export function registrationInput(
  kind: AlarmKind,
  body: RegistrationJson,
  webhookConfig: notificationV1.WebhookEndpointConfig | undefined,
): alarmV1.AlarmRegistrationInput {
  const common: DeepPartial<alarmV1.AlarmRegistrationInput> = {
    registrationId: body.registrationId ?? '',
    recipientId: body.recipientId,
    webhook: { accountId: body.webhook.accountId ?? '', ...(webhookConfig ? { config: webhookConfig } : {}) },
  };
  switch (kind) {
    case 'geometries':
      return alarmV1.AlarmRegistrationInput.create({
        ...common,
        geometryBoundary: geometryBoundary(body.boundary as GeometryBoundaryJson),
        weatherFilter: weatherFilter(body.filter as WeatherFilterJson),
      });
    case 'points': {
      const b = body.boundary as PointBoundaryJson;
      return alarmV1.AlarmRegistrationInput.create({
        ...common,
        pointBoundary: { point: { lng: b.point.lng, lat: b.point.lat }, radiusM: b.radius },
        weatherFilter: weatherFilter(body.filter as WeatherFilterJson),
      });
    }
    case 'forecasts': {
      const filter = body.filter as ForecastFilterJson;
      return alarmV1.AlarmRegistrationInput.create({
        ...common,
        forecastBoundary: forecastBoundary(body.boundary as ForecastBoundaryJson),
        forecastFilter: {
          precipitationThreshold: filter.precipitationThreshold ?? '',
          snowFallThreshold: filter.snowFallThreshold ?? '',
          windGustThreshold: filter.windGustThreshold ?? '',
          hotTemperatureThreshold: filter.hotTemperatureThreshold ?? '',
          coldTemperatureThreshold: filter.coldTemperatureThreshold ?? '',
        },
        forecastDays: body.forecastDays ?? 0,
        forecastAlarmDelivery: (body.forecastAlarmDelivery ?? []).map((d) => `FORECAST_DELIVERY_${d}` as alarmV1.ForecastDelivery),
      });
    }
  }
}

/** The list request of a page body. */
export function listRequest(kind: AlarmKind, body: PageJson, principal: identityV1.Principal): alarmV1.ListAlarmsRequest {
  const boundary = body.filterByBoundary;
  const ring = body.filterByPolygonIntersection;
  return alarmV1.ListAlarmsRequest.create({
    principal,
    kind: KIND_OF_ROUTE[kind],
    page: { pageNumber: body.pageNumber ?? 0, pageSize: body.pageSize ?? DEFAULT_PAGE_SIZE },
    recipientIds: body.filterByRecipientIds ?? [],
    accountId: body.accountId ?? '',
    ...(boundary && kind === 'geometries' ? { geometryBoundary: geometryBoundary(boundary as GeometryBoundaryJson) } : {}),
    ...(boundary && kind === 'forecasts' ? { forecastBoundary: forecastBoundary(boundary as ForecastBoundaryJson) } : {}),
    ...(ring && kind === 'points' ? { polygonIntersection: { points: ring.map(([lng, lat]) => ({ lng: lng ?? 0, lat: lat ?? 0 })) } } : {}),
  });
}

/** Paging of the by-recipient lists from the (coerced) query; absent values take the defaults. */
export function recipientPage(query: Record<string, unknown>): alarmV1.ListAlarmsByRecipientRequest['page'] {
  const pageNumber = typeof query['pageNumber'] === 'number' ? query['pageNumber'] : 0;
  const pageSize = typeof query['pageSize'] === 'number' ? query['pageSize'] : DEFAULT_PAGE_SIZE;
  return { pageNumber, pageSize };
}
