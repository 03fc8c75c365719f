import { enumName, weatherV1, type commonV1, type queryV1 } from '@stormhook/proto';
import type { GeoPointJson, PolygonJson } from './area-shapes.js';

/** The query service's messages as the JSON of interface.md 2.7, 2.8 and 2.11. */

const point = (p: commonV1.GeoPoint | null | undefined): GeoPointJson => ({ lng: p?.lng ?? 0, lat: p?.lat ?? 0 });

function ringForm(polygon: commonV1.Polygon | null | undefined): PolygonJson {
  return { exterior: (polygon?.exterior?.points ?? []).map(point), holes: polygon?.holes.map((h) => h.points.map(point)) ?? [] };
}

/** DRIZZLE ... EXTREME from the enum value; UNSPECIFIED, as always, when the answer left it unset. */
export function intensityName(intensity: weatherV1.PrecipitationIntensity): string {
  return enumName(weatherV1.PrecipitationIntensity, intensity) ?? 'UNSPECIFIED';
}

export function precipitationJson(r: queryV1.PrecipitationRecord) {
  return { eventId: r.eventId, radarTimeStamp: r.radarTimestampEpochMs, forecast: r.forecast, intensity: intensityName(r.intensity) };
}

export function precipitationPageJson(answer: queryV1.ListPrecipitationsResponse) {
  return {
    precipitations: answer.precipitations.map(precipitationJson),
    queryTimestamp: answer.queryEpochMs,
    totalRecords: answer.page?.totalRecords ?? 0,
    pageNumber: answer.page?.pageNumber ?? 0,
    pageSize: answer.page?.pageSize ?? 0,
  };
}

/** interface.md 2.8. Speeds are km/h (the normalised events carry no other unit). */
export function thunderstormJson(e: weatherV1.ThunderstormEvent) {
  return {
    eventId: e.eventId,
    insertedAtEpoch: e.insertedEpochMs,
    eventStartUtcEpoch: e.startEpochMs,
    eventEndUtcEpoch: e.endEpochMs,
    severity: enumName(weatherV1.ThunderstormSeverity, e.severity) ?? 'UNSPECIFIED',
    threshold: e.threshold,
    meta: { country: e.meta?.country ?? '', state: e.meta?.state ?? '', city: e.meta?.city ?? '', speedUnit: 'km/h', speed: e.meta?.speedKmh ?? 0 },
    cell: {
      area: e.cell?.areaKm2 ?? 0,
      speed: e.cell?.speedKmh ?? 0,
      direction: e.cell?.directionDeg ?? 0,
      flashRates: {
        inCloud: e.cell?.flashRates?.inCloud ?? 0,
        cloudToGround: e.cell?.flashRates?.cloudToGround ?? 0,
        total: e.cell?.flashRates?.total ?? 0,
      },
      centroid: point(e.cell?.centroid),
      polygon: ringForm(e.cell?.polygon),
    },
    threatPolygon: ringForm(e.threatPolygon),
  };
}

export function thunderstormPageJson(answer: queryV1.ListThunderstormsResponse) {
  return {
    thunderstorms: answer.thunderstorms.map(thunderstormJson),
    queryTimestamp: answer.queryEpochMs,
    totalRecords: answer.page?.totalRecords ?? 0,
    pageNumber: answer.page?.pageNumber ?? 0,
    pageSize: answer.page?.pageSize ?? 0,
  };
}

/** interface.md 2.11: location, timezone, elevation, icon base, metric forecasts, warnings (in that order). */
export function forecastJson(f: queryV1.GetForecastResponse) {
  return {
    location: point(f.location),
    timezone: f.timezone,
    elevation: f.elevationM ?? null,
    weatherIconUrlBase: f.weatherIconUrlBase,
    metricForecasts: f.metricForecasts.map((m) => ({
      metric: m.metric,
      unit: m.unit,
      forecasts: m.forecasts.map((v) => ({
        time: v.time,
        epochMillis: v.timeEpochMs,
        isDay: v.isDay,
        value: v.value ?? null,
        ...(v.icon ? { icon: v.icon } : {}),
      })),
    })),
    warnings: f.warnings,
    requestedLocation: point(f.requestedLocation),
    gridCell: { id: f.cellId, distance: f.distanceM },
    model: f.model,
    runId: f.runId,
    issueTime: f.issueEpochMs,
  };
}
