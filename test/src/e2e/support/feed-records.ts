import type { commonV1, feedV1, weatherV1 } from '@stormhook/proto';

/** Builders of feed records as a data publisher sends them (proto/stormhook/feed/v1, FEEDS.md). */

export interface Place {
  lng: number;
  lat: number;
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/** A closed counterclockwise square ring around `c`, half-size `d` degrees. */
export function square(c: Place, d: number): commonV1.LinearRing {
  return {
    points: [
      { lng: c.lng - d, lat: c.lat - d },
      { lng: c.lng + d, lat: c.lat - d },
      { lng: c.lng + d, lat: c.lat + d },
      { lng: c.lng - d, lat: c.lat + d },
      { lng: c.lng - d, lat: c.lat - d },
    ],
  };
}

export function precipitation(
  sourceEventId: string,
  at: Place,
  radarTimeMs: number,
  options: { rainRate?: number; intensity?: weatherV1.PrecipitationIntensity; version?: number; halfSize?: number } = {},
): feedV1.PrecipitationObservation {
  return {
    sourceEventId,
    version: options.version ?? 1,
    updatedEpochMs: 0,
    radarTimestampEpochMs: radarTimeMs,
    forecast: false,
    ...(options.intensity ? { intensity: options.intensity } : { rainRateMmPerH: options.rainRate ?? 5 }),
    geometry: { polygons: [{ exterior: square(at, options.halfSize ?? 0.03), holes: [] }] },
    motion: { speedKmh: 35, directionDeg: 90 },
  };
}

export function lightning(sourceEventId: string, at: Place, timeMs: number, peakCurrentAmperes = -24_000): feedV1.LightningStrike {
  return {
    sourceEventId,
    version: 0,
    updatedEpochMs: 0,
    timeEpochMs: timeMs,
    type: 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND',
    latitude: at.lat,
    longitude: at.lng,
    peakCurrentAmperes,
    multiplicity: 2,
  };
}

export function thunderstorm(
  sourceEventId: string,
  at: Place,
  startMs: number,
  endMs: number,
  options: { version?: number; severity?: weatherV1.ThunderstormSeverity } = {},
): feedV1.ThunderstormCell {
  return {
    sourceEventId,
    version: options.version ?? 1,
    updatedEpochMs: 0,
    insertedEpochMs: startMs,
    startEpochMs: startMs,
    endEpochMs: endMs,
    severity: options.severity ?? 'THUNDERSTORM_SEVERITY_MEDIUM',
    threshold: 3,
    speedUnit: 'SPEED_UNIT_KILOMETRES_PER_HOUR',
    meta: { country: 'TUR', state: '', city: 'Ankara', speed: 38 },
    cell: {
      areaKm2: 9,
      speed: 33,
      directionDeg: 90,
      flashRates: { inCloud: 4.3, cloudToGround: 0.4, total: 4.7 },
      centroid: { ...at },
      polygon: { exterior: square(at, 0.02), holes: [] },
    },
    // The threat area lies ahead of the cell, in the direction it moves (east).
    threatPolygon: { exterior: square({ lng: at.lng + 0.05, lat: at.lat }, 0.04), holes: [] },
  };
}

export interface GridPoint {
  id: string;
  at: Place;
  /** Temperature of the first hour, °C; it rises by `slope` per hour. */
  base: number;
  slope?: number;
}

/**
 * One forecast run in one chunk: temperature, humidity, precipitation and gusts for `hours` hours.
 * A complete newer run of a model supersedes its older runs everywhere, so each scenario names its
 * own model.
 */
export function forecastGrid(runId: string, issueMs: number, firstHourMs: number, points: GridPoint[], hours = 72, model = 'e2e-model'): feedV1.ForecastGrid {
  const series = (metric: weatherV1.ForecastMetric, value: (hour: number) => number): feedV1.MetricSeries => ({
    metric,
    values: Array.from({ length: hours }, (_, h) => value(h)),
  });
  return {
    runId,
    version: 0,
    updatedEpochMs: 0,
    model,
    issueEpochMs: issueMs,
    chunkIndex: 0,
    chunkCount: 1,
    firstHourEpochMs: firstHourMs,
    hourCount: hours,
    cells: points.map((p) => ({
      cellId: p.id,
      latitude: p.at.lat,
      longitude: p.at.lng,
      elevationM: 900,
      series: [
        series('FORECAST_METRIC_TEMPERATURE', (h) => p.base + (p.slope ?? 0) * h),
        series('FORECAST_METRIC_HUMIDITY', () => 55),
        series('FORECAST_METRIC_PRECIPITATION', (h) => (h % 3 === 0 ? 0.4 : 0)),
        series('FORECAST_METRIC_WIND_GUSTS', () => 20),
        series('FORECAST_METRIC_WEATHER_CODE', () => 1),
      ],
    })),
  };
}
