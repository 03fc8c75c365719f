import { alarmV1, enumValue, notificationV1, weatherV1, type DeepPartial, type identityV1 } from '@stormhook/proto';
import type { WeatherAlarmFilter } from '../schemas/alarm-filters.js';
import type { AlarmKind, ForecastAlarmBoundary, GeometryAlarmBoundary, RecipientPageQuery, alarmSchemas } from '../schemas/alarms.js';
import type { Validated } from '../schemas/json-schema.js';

/**
 * The public alarm-registration JSON (interface.md 2.3 to 2.5, already schema-checked) as the
 * alarm-matcher's messages. Only the shape changes here: units and rules are the matcher's (it
 * validates everything again and names the public field in its 400s), so a field the public
 * contract leaves out stays out rather than getting a default.
 */

type AlarmSchemas = typeof alarmSchemas;

type GeometryBoundaryInput = Validated<typeof GeometryAlarmBoundary>;
type ForecastBoundaryInput = Validated<typeof ForecastAlarmBoundary>;
type WeatherFilterInput = Validated<typeof WeatherAlarmFilter>;

/** The alarm operations whose body schema differs by kind. */
export type KindOperation = 'registerRequest' | 'updateRequest' | 'pageRequest' | 'backtestRequest';

/**
 * A body with the kind whose schema validated it: switching on `kind` gives the mapping each kind's
 * own boundary and filter types, with no cast.
 */
export type KindInput<Op extends KindOperation> = {
  [K in AlarmKind]: { kind: K; body: Validated<AlarmSchemas[K][Op]> };
}[AlarmKind];

export type KindRegistration = KindInput<'registerRequest' | 'updateRequest'>;
export type KindPage = KindInput<'pageRequest'>;
export type KindBacktest = KindInput<'backtestRequest'>;

export const KIND_OF_ROUTE: Readonly<Record<AlarmKind, alarmV1.RegistrationKind>> = {
  geometries: 'REGISTRATION_KIND_GEOMETRY',
  forecasts: 'REGISTRATION_KIND_FORECAST',
  points: 'REGISTRATION_KIND_POINT',
};

/** Page size of the lists when the caller sends none (the matcher's default too). */
export const DEFAULT_PAGE_SIZE = 20;

function geometryBoundary(b: GeometryBoundaryInput): alarmV1.GeometryBoundary {
  return alarmV1.GeometryBoundary.create({
    cityId: b.cityId,
    ...(b.districtId !== undefined ? { districtId: b.districtId } : {}),
    ...(b.neighborhoodId !== undefined ? { neighborhoodId: b.neighborhoodId } : {}),
  });
}

function forecastBoundary(b: ForecastBoundaryInput): alarmV1.ForecastBoundary {
  return alarmV1.ForecastBoundary.create(
    b.type === 'POINT' ? { point: { lng: b.point.lng, lat: b.point.lat } } : { administrative: { cityId: b.cityId, districtId: b.districtId } },
  );
}

function weatherFilter(filter: WeatherFilterInput): DeepPartial<alarmV1.WeatherAlarmFilter> {
  const { lightning, thunderstorm, precipitation } = filter;
  return {
    ...(lightning
      ? {
          lightning: {
            type: lightning.type === undefined ? 'LIGHTNING_TYPE_UNSPECIFIED' : enumValue(weatherV1.LightningType, lightning.type),
            ...(lightning.peakCurrent !== undefined ? { peakCurrentAmperes: lightning.peakCurrent } : {}),
            ...(lightning.inCloudHeight !== undefined ? { inCloudHeightM: lightning.inCloudHeight } : {}),
            ...(lightning.approachRadius !== undefined ? { approachRadiusM: lightning.approachRadius } : {}),
          },
        }
      : {}),
    ...(thunderstorm
      ? {
          thunderstorm: {
            ...(thunderstorm.intersectsAffectedPolygon !== undefined ? { intersectsAffectedPolygon: thunderstorm.intersectsAffectedPolygon } : {}),
            ...(thunderstorm.intersectsCellPolygon !== undefined ? { intersectsCellPolygon: thunderstorm.intersectsCellPolygon } : {}),
            severityThreshold:
              thunderstorm.severityThreshold === undefined
                ? 'THUNDERSTORM_SEVERITY_UNSPECIFIED'
                : enumValue(weatherV1.ThunderstormSeverity, thunderstorm.severityThreshold),
            ...(thunderstorm.speedThreshold !== undefined ? { speedThresholdKmh: thunderstorm.speedThreshold } : {}),
            ...(thunderstorm.approach ? { approach: { leadMinutes: thunderstorm.approach.leadMinutes } } : {}),
          },
        }
      : {}),
    ...(precipitation
      ? {
          precipitation: {
            intensities: (precipitation.intensities ?? []).map((i) => enumValue(weatherV1.PrecipitationIntensity, i)),
            ...(precipitation.approach ? { approach: { leadMinutes: precipitation.approach.leadMinutes } } : {}),
          },
        }
      : {}),
  };
}

/**
 * The registration as the matcher's AlarmRegistrationInput. `webhookConfig` is the public webhook
 * already mapped with toEndpointConfig (absent when the request carries only webhook.accountId). A
 * back-test's body may carry no webhook: none is sent on.
 */
export function registrationInput(
  registration: KindRegistration | KindBacktest,
  webhookConfig: notificationV1.WebhookEndpointConfig | undefined,
): alarmV1.AlarmRegistrationInput {
  const { body } = registration;
  const common: DeepPartial<alarmV1.AlarmRegistrationInput> = {
    registrationId: body.registrationId ?? '',
    recipientId: body.recipientId,
    ...(body.webhook ? { webhook: { accountId: body.webhook.accountId ?? '', ...(webhookConfig ? { config: webhookConfig } : {}) } } : {}),
  };
  switch (registration.kind) {
    case 'geometries': {
      const { boundary, filter } = registration.body;
      return alarmV1.AlarmRegistrationInput.create({ ...common, geometryBoundary: geometryBoundary(boundary), weatherFilter: weatherFilter(filter) });
    }
    case 'points': {
      const { boundary, filter } = registration.body;
      return alarmV1.AlarmRegistrationInput.create({
        ...common,
        pointBoundary: { point: { lng: boundary.point.lng, lat: boundary.point.lat }, radiusM: boundary.radius },
        weatherFilter: weatherFilter(filter),
      });
    }
    case 'forecasts': {
      const { boundary, filter, forecastDays, forecastAlarmDelivery } = registration.body;
      return alarmV1.AlarmRegistrationInput.create({
        ...common,
        forecastBoundary: forecastBoundary(boundary),
        forecastFilter: {
          precipitationThreshold: filter.precipitationThreshold ?? '',
          snowFallThreshold: filter.snowFallThreshold ?? '',
          windGustThreshold: filter.windGustThreshold ?? '',
          hotTemperatureThreshold: filter.hotTemperatureThreshold ?? '',
          coldTemperatureThreshold: filter.coldTemperatureThreshold ?? '',
        },
        forecastDays,
        forecastAlarmDelivery: forecastAlarmDelivery.map((d) => enumValue(alarmV1.ForecastDelivery, d)),
      });
    }
  }
}

/**
 * The back-test request of a body. A back-test delivers nothing, so of a webhook sent only what shows
 * it was sent travels on (its accountId, and the url of a configuration): the matcher checks its
 * shape and says it is unused, and credentials never leave the gateway for it.
 */
export function backtestRequest(backtest: KindBacktest, principal: identityV1.Principal): alarmV1.BacktestAlarmRequest {
  const { body } = backtest;
  const webhook = body.webhook;
  const marker = webhook?.url !== undefined ? notificationV1.WebhookEndpointConfig.create({ url: webhook.url }) : undefined;
  return alarmV1.BacktestAlarmRequest.create({
    principal,
    kind: KIND_OF_ROUTE[backtest.kind],
    registration: registrationInput(backtest, marker),
    fromEpochMs: body.from,
    toEpochMs: body.to,
  });
}

/** The list request of a page body. */
export function listRequest(page: KindPage, principal: identityV1.Principal): alarmV1.ListAlarmsRequest {
  const { body } = page;
  const common: DeepPartial<alarmV1.ListAlarmsRequest> = {
    principal,
    kind: KIND_OF_ROUTE[page.kind],
    page: { pageNumber: body.pageNumber ?? 0, pageSize: body.pageSize ?? DEFAULT_PAGE_SIZE },
    recipientIds: body.filterByRecipientIds ?? [],
    accountId: body.accountId ?? '',
  };
  switch (page.kind) {
    case 'geometries': {
      const boundary = page.body.filterByBoundary;
      return alarmV1.ListAlarmsRequest.create({ ...common, ...(boundary ? { geometryBoundary: geometryBoundary(boundary) } : {}) });
    }
    case 'forecasts': {
      const boundary = page.body.filterByBoundary;
      return alarmV1.ListAlarmsRequest.create({ ...common, ...(boundary ? { forecastBoundary: forecastBoundary(boundary) } : {}) });
    }
    case 'points': {
      const ring = page.body.filterByPolygonIntersection;
      return alarmV1.ListAlarmsRequest.create({
        ...common,
        ...(ring ? { polygonIntersection: { points: ring.map(([lng, lat]) => ({ lng, lat })) } } : {}),
      });
    }
  }
}

/** Paging of the by-recipient lists from the (coerced) query; absent values take the defaults. */
export function recipientPage(query: Validated<typeof RecipientPageQuery>): alarmV1.ListAlarmsByRecipientRequest['page'] {
  return { pageNumber: query.pageNumber ?? 0, pageSize: query.pageSize ?? DEFAULT_PAGE_SIZE };
}
