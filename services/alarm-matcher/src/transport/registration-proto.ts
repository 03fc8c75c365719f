import type { alarmV1, DeepPartial } from '@stormhook/proto';
import { alarmV1 as alarm, enumName, enumValue, weatherV1 } from '@stormhook/proto';
import {
  DELIVERIES,
  FORECAST_FILTER_FIELDS,
  type Delivery,
  type ForecastFilter,
  type Registration,
  type RegistrationKind,
  type WeatherFilter,
} from '../domain/registration.js';
import type { Intensity } from '../domain/weather-enums.js';
import type { WebhookConfig } from '../ports/webhook-store.js';

/** The domain's kind of a proto kind; undefined for UNSPECIFIED or a kind this build does not know. */
export function kindFromProto(kind: alarmV1.RegistrationKind | string): RegistrationKind | undefined {
  return enumName(alarm.RegistrationKind, kind);
}

export function deliveryToProto(delivery: Delivery): alarmV1.ForecastDelivery {
  return enumValue(alarm.ForecastDelivery, delivery);
}

export function deliveryFromProto(value: string): string {
  return enumName(alarm.ForecastDelivery, value) ?? (value === alarm.ForecastDelivery.FORECAST_DELIVERY_UNSPECIFIED ? '' : value);
}

function weatherFilterToProto(filter: WeatherFilter): DeepPartial<alarmV1.WeatherAlarmFilter> {
  const { lightning, thunderstorm, precipitation } = filter;
  return {
    ...(lightning
      ? {
          lightning: {
            type: lightning.type ? enumValue(weatherV1.LightningType, lightning.type) : 'LIGHTNING_TYPE_UNSPECIFIED',
            ...(lightning.peakCurrentA !== undefined ? { peakCurrentAmperes: lightning.peakCurrentA } : {}),
            ...(lightning.inCloudHeightM !== undefined ? { inCloudHeightM: lightning.inCloudHeightM } : {}),
            ...(lightning.approachRadiusM !== undefined ? { approachRadiusM: lightning.approachRadiusM } : {}),
          },
        }
      : {}),
    ...(thunderstorm
      ? {
          thunderstorm: {
            ...(thunderstorm.intersectsAffectedPolygon !== undefined ? { intersectsAffectedPolygon: thunderstorm.intersectsAffectedPolygon } : {}),
            ...(thunderstorm.intersectsCellPolygon !== undefined ? { intersectsCellPolygon: thunderstorm.intersectsCellPolygon } : {}),
            severityThreshold: thunderstorm.severityThreshold
              ? enumValue(weatherV1.ThunderstormSeverity, thunderstorm.severityThreshold)
              : 'THUNDERSTORM_SEVERITY_UNSPECIFIED',
            ...(thunderstorm.speedThresholdKmh !== undefined ? { speedThresholdKmh: thunderstorm.speedThresholdKmh } : {}),
            ...(thunderstorm.approach ? { approach: { leadMinutes: thunderstorm.approach.leadMinutes } } : {}),
          },
        }
      : {}),
    ...(precipitation
      ? {
          precipitation: {
            intensities: precipitation.intensities.map((i) => enumValue(weatherV1.PrecipitationIntensity, i)),
            ...(precipitation.approach ? { approach: { leadMinutes: precipitation.approach.leadMinutes } } : {}),
          },
        }
      : {}),
  };
}

function forecastFilterToProto(filter: ForecastFilter): DeepPartial<alarmV1.ForecastAlarmFilter> {
  return Object.fromEntries(FORECAST_FILTER_FIELDS.map((field) => [field, filter[field] ?? '']));
}

/** The proto form of a stored registration; `webhook` is added for API answers, left out of broadcasts. */
export function registrationToProto(
  registration: Registration,
  webhook?: { accountId: string; config?: WebhookConfig | undefined },
  extraWarnings: readonly string[] = [],
): alarmV1.AlarmRegistration {
  const base: DeepPartial<alarmV1.AlarmRegistration> = {
    registrationId: registration.registrationId,
    accountId: registration.accountId,
    kind: enumValue(alarm.RegistrationKind, registration.kind),
    recipientId: registration.recipientId,
    createdAtEpochMs: registration.createdAtMs,
    updatedAtEpochMs: registration.updatedAtMs,
    warnings: [...registration.warnings, ...extraWarnings],
    version: registration.version,
    ...(webhook ? { webhook: { accountId: webhook.accountId, ...(webhook.config ? { config: webhook.config } : {}) } } : {}),
  };
  switch (registration.kind) {
    case 'GEOMETRY':
      return alarm.AlarmRegistration.create({
        ...base,
        geometryBoundary: {
          cityId: registration.area.cityId,
          ...(registration.area.districtId !== undefined ? { districtId: registration.area.districtId } : {}),
          ...(registration.area.neighborhoodId !== undefined ? { neighborhoodId: registration.area.neighborhoodId } : {}),
        },
        weatherFilter: weatherFilterToProto(registration.filter),
      });
    case 'POINT':
      return alarm.AlarmRegistration.create({
        ...base,
        pointBoundary: { point: { lat: registration.circle.point.lat, lng: registration.circle.point.lng }, radiusM: registration.circle.radiusM },
        weatherFilter: weatherFilterToProto(registration.filter),
      });
    case 'FORECAST': {
      const b = registration.boundary;
      return alarm.AlarmRegistration.create({
        ...base,
        forecastBoundary:
          b.type === 'ADMINISTRATIVE' ? { administrative: { cityId: b.cityId, districtId: b.districtId } } : { point: { lat: b.point.lat, lng: b.point.lng } },
        forecastFilter: forecastFilterToProto(registration.filter),
        forecastDays: registration.forecastDays,
        forecastAlarmDelivery: registration.delivery.map(deliveryToProto),
        resolvedAdministrativeBoundary: { ...registration.resolved },
        ...(registration.resolvedCell
          ? {
              resolvedForecastCell: {
                cellId: registration.resolvedCell.cellId,
                location: { ...registration.resolvedCell.location },
                distanceM: registration.resolvedCell.distanceM,
              },
            }
          : {}),
      });
    }
  }
}

function weatherFilterFromProto(filter: alarmV1.WeatherAlarmFilter | null | undefined): WeatherFilter {
  const out: WeatherFilter = {};
  if (filter?.lightning) {
    const type = enumName(weatherV1.LightningType, filter.lightning.type);
    out.lightning = {
      ...(type ? { type } : {}),
      ...(filter.lightning.peakCurrentAmperes !== undefined ? { peakCurrentA: filter.lightning.peakCurrentAmperes } : {}),
      ...(filter.lightning.inCloudHeightM !== undefined ? { inCloudHeightM: filter.lightning.inCloudHeightM } : {}),
      ...(filter.lightning.approachRadiusM !== undefined ? { approachRadiusM: filter.lightning.approachRadiusM } : {}),
    };
  }
  if (filter?.thunderstorm) {
    const t = filter.thunderstorm;
    const severity = enumName(weatherV1.ThunderstormSeverity, t.severityThreshold);
    out.thunderstorm = {
      ...(t.intersectsAffectedPolygon !== undefined ? { intersectsAffectedPolygon: t.intersectsAffectedPolygon } : {}),
      ...(t.intersectsCellPolygon !== undefined ? { intersectsCellPolygon: t.intersectsCellPolygon } : {}),
      ...(severity ? { severityThreshold: severity } : {}),
      ...(t.speedThresholdKmh !== undefined ? { speedThresholdKmh: t.speedThresholdKmh } : {}),
      ...(t.approach ? { approach: { leadMinutes: t.approach.leadMinutes } } : {}),
    };
  }
  if (filter?.precipitation) {
    out.precipitation = {
      intensities: filter.precipitation.intensities.map((i) => enumName(weatherV1.PrecipitationIntensity, i)).filter((i): i is Intensity => i !== undefined),
      ...(filter.precipitation.approach ? { approach: { leadMinutes: filter.precipitation.approach.leadMinutes } } : {}),
    };
  }
  return out;
}

/** A registration from a RegistrationChanged broadcast (written by {@link registrationToProto}). */
export function registrationFromProto(p: alarmV1.AlarmRegistration): Registration | undefined {
  const kind = kindFromProto(p.kind);
  const base = {
    registrationId: p.registrationId,
    accountId: p.accountId,
    recipientId: p.recipientId,
    createdAtMs: p.createdAtEpochMs,
    updatedAtMs: p.updatedAtEpochMs,
    version: p.version,
    warnings: [...p.warnings],
  };
  if (kind === 'GEOMETRY' && p.geometryBoundary) {
    const b = p.geometryBoundary;
    return {
      ...base,
      kind,
      area: {
        cityId: b.cityId,
        ...(b.districtId !== undefined ? { districtId: b.districtId } : {}),
        ...(b.neighborhoodId !== undefined ? { neighborhoodId: b.neighborhoodId } : {}),
      },
      filter: weatherFilterFromProto(p.weatherFilter),
    };
  }
  if (kind === 'POINT' && p.pointBoundary?.point) {
    const { point, radiusM } = p.pointBoundary;
    return { ...base, kind, circle: { point: { lat: point.lat, lng: point.lng }, radiusM }, filter: weatherFilterFromProto(p.weatherFilter) };
  }
  if (kind === 'FORECAST' && p.forecastBoundary && p.resolvedAdministrativeBoundary) {
    const fb = p.forecastBoundary;
    const boundary = fb.administrative
      ? { type: 'ADMINISTRATIVE' as const, cityId: fb.administrative.cityId, districtId: fb.administrative.districtId }
      : fb.point
        ? { type: 'POINT' as const, point: { lat: fb.point.lat, lng: fb.point.lng } }
        : undefined;
    if (!boundary) return undefined;
    const filter: ForecastFilter = {};
    for (const field of FORECAST_FILTER_FIELDS) {
      const value = p.forecastFilter?.[field];
      if (value) filter[field] = value;
    }
    const r = p.resolvedAdministrativeBoundary;
    const cell = p.resolvedForecastCell;
    return {
      ...base,
      kind,
      boundary,
      filter,
      forecastDays: p.forecastDays,
      delivery: p.forecastAlarmDelivery.map(deliveryFromProto).filter((d): d is Delivery => (DELIVERIES as readonly string[]).includes(d)),
      resolved: { cityId: r.cityId, cityName: r.cityName, districtId: r.districtId, districtName: r.districtName },
      ...(cell?.location
        ? { resolvedCell: { cellId: cell.cellId, location: { lat: cell.location.lat, lng: cell.location.lng }, distanceM: cell.distanceM } }
        : {}),
    };
  }
  return undefined;
}
