import { alarmV1, enumName, weatherV1 } from '@stormhook/proto';
import type { AlarmKind } from '../schemas/alarms.js';
import { toPublicWebhook, type PublicWebhook } from './webhook-mapping.js';
import { webhookForViewer } from './webhook-masking.js';

/**
 * The alarm-matcher's answers in the public shapes of interface.md 2.3 to 2.5: enums without their
 * proto prefixes, units in the public field names (radius metres, peakCurrent amperes, speedThreshold
 * km/h, approachRadius metres, approach.leadMinutes minutes), epoch milliseconds as ISO 8601, and the
 * webhook without authentication.type and with the password masked (toPublicWebhook masks again
 * whatever the matcher sent).
 */

/** The weather filter as answers show it (the request's is typed by its schema, handlers/alarms-input.ts). */
export interface WeatherFilterJson {
  lightning?: { type?: string; peakCurrent?: number; inCloudHeight?: number; approachRadius?: number };
  thunderstorm?: {
    intersectsAffectedPolygon?: boolean;
    intersectsCellPolygon?: boolean;
    severityThreshold?: string;
    speedThreshold?: number;
    approach?: ApproachStageJson;
  };
  precipitation?: { intensities?: string[]; approach?: ApproachStageJson };
}

/** The early-warning stage (an extension beyond interface.md): minutes ahead of the predicted arrival. */
export interface ApproachStageJson {
  leadMinutes: number;
}

/** Absent stays absent: no stage means the contract's behaviour, and the answer must not suggest one. */
const approachJson = (stage: alarmV1.ApproachStage | null | undefined): { approach?: ApproachStageJson } =>
  stage ? { approach: { leadMinutes: stage.leadMinutes } } : {};

export type ForecastFilterJson = Partial<Record<keyof alarmV1.ForecastAlarmFilter, string>>;

const iso = (epochMs: number): string => new Date(epochMs).toISOString();

function weatherFilterJson(filter: alarmV1.WeatherAlarmFilter | null | undefined): WeatherFilterJson {
  const out: WeatherFilterJson = {};
  const lightning = filter?.lightning;
  if (lightning) {
    const type = enumName(weatherV1.LightningType, lightning.type);
    out.lightning = {
      ...(type ? { type } : {}),
      ...(lightning.peakCurrentAmperes !== undefined ? { peakCurrent: lightning.peakCurrentAmperes } : {}),
      ...(lightning.inCloudHeightM !== undefined ? { inCloudHeight: lightning.inCloudHeightM } : {}),
      ...(lightning.approachRadiusM !== undefined ? { approachRadius: lightning.approachRadiusM } : {}),
    };
  }
  const storm = filter?.thunderstorm;
  if (storm) {
    const severity = enumName(weatherV1.ThunderstormSeverity, storm.severityThreshold);
    out.thunderstorm = {
      ...(storm.intersectsAffectedPolygon !== undefined ? { intersectsAffectedPolygon: storm.intersectsAffectedPolygon } : {}),
      ...(storm.intersectsCellPolygon !== undefined ? { intersectsCellPolygon: storm.intersectsCellPolygon } : {}),
      ...(severity ? { severityThreshold: severity } : {}),
      ...(storm.speedThresholdKmh !== undefined ? { speedThreshold: storm.speedThresholdKmh } : {}),
      ...approachJson(storm.approach),
    };
  }
  if (filter?.precipitation) {
    out.precipitation = {
      intensities: filter.precipitation.intensities.map((i) => enumName(weatherV1.PrecipitationIntensity, i)).filter((i) => i !== undefined),
      ...approachJson(filter.precipitation.approach),
    };
  }
  return out;
}

function forecastFilterJson(filter: alarmV1.ForecastAlarmFilter | null | undefined): ForecastFilterJson {
  const out: ForecastFilterJson = {};
  if (!filter) return out;
  for (const [field, value] of Object.entries(filter) as Array<[keyof alarmV1.ForecastAlarmFilter, string]>) {
    if (value) out[field] = value;
  }
  return out;
}

function boundaryJson(r: alarmV1.AlarmRegistration): Record<string, unknown> {
  if (r.geometryBoundary) {
    const b = r.geometryBoundary;
    return {
      cityId: b.cityId,
      ...(b.districtId !== undefined ? { districtId: b.districtId } : {}),
      ...(b.neighborhoodId !== undefined ? { neighborhoodId: b.neighborhoodId } : {}),
    };
  }
  if (r.forecastBoundary?.administrative) {
    return { type: 'ADMINISTRATIVE', cityId: r.forecastBoundary.administrative.cityId, districtId: r.forecastBoundary.administrative.districtId };
  }
  if (r.forecastBoundary?.point) return { type: 'POINT', point: { lng: r.forecastBoundary.point.lng, lat: r.forecastBoundary.point.lat } };
  if (r.pointBoundary) {
    const point = r.pointBoundary.point;
    return { point: { lng: point?.lng ?? 0, lat: point?.lat ?? 0 }, radius: r.pointBoundary.radiusM };
  }
  return {};
}

/** The forecast-only fields of 2.4. */
function forecastExtras(r: alarmV1.AlarmRegistration): Record<string, unknown> {
  const resolved = r.resolvedAdministrativeBoundary;
  const cell = r.resolvedForecastCell;
  return {
    forecastDays: r.forecastDays,
    forecastAlarmDelivery: r.forecastAlarmDelivery.map((d) => enumName(alarmV1.ForecastDelivery, d)).filter((d) => d !== undefined),
    ...(resolved
      ? {
          resolvedAdministrativeBoundary: {
            cityId: resolved.cityId,
            cityName: resolved.cityName,
            districtId: resolved.districtId,
            districtName: resolved.districtName,
          },
        }
      : {}),
    ...(cell
      ? { resolvedForecastCell: { cellId: cell.cellId, location: { lng: cell.location?.lng ?? 0, lat: cell.location?.lat ?? 0 }, distance: cell.distanceM } }
      : {}),
  };
}

export interface RegistrationJsonView {
  registrationId: string;
  recipientId: string;
  boundary: Record<string, unknown>;
  webhook: PublicWebhook;
  filter: WeatherFilterJson | ForecastFilterJson;
  createdAt: string;
  updatedAt: string;
  warnings: string[];
  /** Present while the account is no longer entitled: no callback leaves (issue 23). */
  suspended?: { reason: string; since: number };
  [forecastField: string]: unknown;
}

/**
 * One registration as the public answer of 2.3 (geometry), 2.4 (forecast) or 2.5 (point), for a
 * caller of account `viewerAccountId`: another account's webhook shows masked (webhook-masking.ts).
 */
export function registrationJson(kind: AlarmKind, r: alarmV1.AlarmRegistration, viewerAccountId: string | undefined): RegistrationJsonView {
  const forecast = kind === 'forecasts';
  return {
    registrationId: r.registrationId,
    recipientId: r.recipientId,
    boundary: boundaryJson(r),
    // The registration's account owns the webhook: its id is the webhook.accountId later registrations send.
    webhook: webhookForViewer(toPublicWebhook({ accountId: r.webhook?.accountId || r.accountId, config: r.webhook?.config }), viewerAccountId),
    filter: forecast ? forecastFilterJson(r.forecastFilter) : weatherFilterJson(r.weatherFilter),
    ...(forecast ? forecastExtras(r) : {}),
    createdAt: iso(r.createdAtEpochMs),
    updatedAt: iso(r.updatedAtEpochMs),
    warnings: [...r.warnings],
    // An addition to the contract's shape, present only while suspended.
    ...(r.suspended ? { suspended: { reason: r.suspended.reason, since: Number(r.suspended.sinceEpochMs) } } : {}),
  };
}

/** A list answer: `registrations`, `totalRecords`, `pageNumber`, `pageSize` (4.8). */
export function pageJson(kind: AlarmKind, page: alarmV1.ListAlarmsResponse, viewerAccountId: string | undefined): Record<string, unknown> {
  return {
    registrations: page.registrations.map((r) => registrationJson(kind, r, viewerAccountId)),
    totalRecords: page.page?.totalRecords ?? page.registrations.length,
    pageNumber: page.page?.pageNumber ?? 0,
    pageSize: page.page?.pageSize ?? page.registrations.length,
  };
}

export function thresholdsJson(response: alarmV1.ListForecastThresholdsResponse): Record<string, unknown> {
  return {
    thresholds: response.thresholds.map((t) => ({
      filterField: t.filterField,
      name: t.name,
      metric: t.metric,
      unit: t.unit,
      value: t.value,
      comparison: t.comparison,
      aggregation: t.aggregation,
    })),
  };
}

export function slotJson(outcome: alarmV1.RunForecastSlotResponse): Record<string, unknown> {
  return {
    slotId: outcome.slotId,
    evaluated: outcome.evaluated,
    late: outcome.late,
    registrations: outcome.registrations,
    notifications: outcome.notifications,
    forecastRunId: outcome.forecastRunId || null,
  };
}
