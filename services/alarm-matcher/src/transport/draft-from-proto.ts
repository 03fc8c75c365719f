import { enumName, weatherV1, type alarmV1 } from '@stormhook/proto';
import type { ApproachStageDraft, RegistrationDraft } from '../domain/draft.js';
import { FORECAST_FILTER_FIELDS, type RegistrationKind } from '../domain/registration.js';
import { deliveryFromProto } from './registration-proto.js';

/**
 * The public name of a decoded enum value; '' when not set; a wire number this build does not know
 * passes through as its digits and fails validation, which names it.
 */
function plain<const Values extends Readonly<Record<string, string>>>(values: Values, value: string | number): string {
  return typeof value === 'number' ? String(value) : (enumName(values, value) ?? '');
}

/** The early-warning stage as sent: a present message stays present even with lead_minutes 0, so validation names it. */
function approachDraft(stage: alarmV1.ApproachStage | null | undefined): ApproachStageDraft | undefined {
  return stage ? { leadMinutes: stage.leadMinutes } : undefined;
}

/** A registration request as the use cases take it (validation happens there). */
export function draftFromProto(kind: RegistrationKind, input: alarmV1.AlarmRegistrationInput | null | undefined): RegistrationDraft {
  const i = input;
  const filter = i?.weatherFilter;
  return {
    kind,
    registrationId: i?.registrationId ?? '',
    recipientId: i?.recipientId ?? '',
    ...(i?.geometryBoundary
      ? {
          geometryBoundary: {
            cityId: i.geometryBoundary.cityId,
            districtId: i.geometryBoundary.districtId,
            neighborhoodId: i.geometryBoundary.neighborhoodId,
          },
        }
      : {}),
    ...(i?.forecastBoundary
      ? {
          forecastBoundary: {
            administrative: i.forecastBoundary.administrative
              ? { cityId: i.forecastBoundary.administrative.cityId, districtId: i.forecastBoundary.administrative.districtId }
              : undefined,
            point: i.forecastBoundary.point ? { lat: i.forecastBoundary.point.lat, lng: i.forecastBoundary.point.lng } : undefined,
          },
        }
      : {}),
    ...(i?.pointBoundary
      ? {
          pointBoundary: {
            point: i.pointBoundary.point ? { lat: i.pointBoundary.point.lat, lng: i.pointBoundary.point.lng } : undefined,
            radiusM: i.pointBoundary.radiusM,
          },
        }
      : {}),
    ...(i?.webhook ? { webhook: { accountId: i.webhook.accountId.trim(), config: i.webhook.config ?? undefined } } : {}),
    ...(filter
      ? {
          weatherFilter: {
            lightning: filter.lightning
              ? {
                  type: plain(weatherV1.LightningType, filter.lightning.type),
                  peakCurrentA: filter.lightning.peakCurrentAmperes,
                  inCloudHeightM: filter.lightning.inCloudHeightM,
                  approachRadiusM: filter.lightning.approachRadiusM,
                }
              : undefined,
            thunderstorm: filter.thunderstorm
              ? {
                  intersectsAffectedPolygon: filter.thunderstorm.intersectsAffectedPolygon,
                  intersectsCellPolygon: filter.thunderstorm.intersectsCellPolygon,
                  severityThreshold: plain(weatherV1.ThunderstormSeverity, filter.thunderstorm.severityThreshold),
                  speedThresholdKmh: filter.thunderstorm.speedThresholdKmh,
                  approach: approachDraft(filter.thunderstorm.approach),
                }
              : undefined,
            precipitation: filter.precipitation
              ? {
                  intensities: filter.precipitation.intensities.map((value) => plain(weatherV1.PrecipitationIntensity, value) || 'UNSPECIFIED'),
                  approach: approachDraft(filter.precipitation.approach),
                }
              : undefined,
          },
        }
      : {}),
    ...(i?.forecastFilter ? { forecastFilter: Object.fromEntries(FORECAST_FILTER_FIELDS.map((field) => [field, i.forecastFilter?.[field] ?? ''])) } : {}),
    forecastDays: i?.forecastDays ?? 0,
    delivery: (i?.forecastAlarmDelivery ?? []).map((value) => deliveryFromProto(String(value)) || 'UNSPECIFIED'),
  };
}
