import { areaKey } from '@stormhook/ingest';
import { EventTypes, TopicNames } from '@stormhook/kafka';
import { weatherV1, type commonV1 } from '@stormhook/proto';
import type { WeatherStack } from './support.js';

/** Places the real geo service resolves (provinces Ankara and İstanbul of TUR; Lefkoşa in CTR). */
export const PLACES = {
  ankara: { lng: 32.85, lat: 39.93 },
  istanbul: { lng: 28.97, lat: 41.01 },
  lefkosa: { lng: 33.36, lat: 35.18 },
} as const;

type Place = { lng: number; lat: number };

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

function box(rings: commonV1.LinearRing[]): weatherV1.BoundingBox {
  const pts = rings.flatMap((r) => r.points);
  return {
    minLng: Math.min(...pts.map((p) => p.lng)),
    minLat: Math.min(...pts.map((p) => p.lat)),
    maxLng: Math.max(...pts.map((p) => p.lng)),
    maxLat: Math.max(...pts.map((p) => p.lat)),
  };
}

const revision = (n: number): weatherV1.EventRevision => ({ revision: n, sourceVersion: n, sourceUpdatedEpochMs: 0, ingestedEpochMs: Date.now() });

export function precipitation(
  id: string,
  at: Place,
  time: number,
  intensity: weatherV1.PrecipitationIntensity = 'PRECIPITATION_INTENSITY_MODERATE',
  extra: Partial<weatherV1.PrecipitationEvent> & { halfSize?: number } = {},
): weatherV1.PrecipitationEvent {
  const { halfSize = 0.1, ...overrides } = extra;
  const ring = square(at, halfSize);
  return {
    eventId: `prc_${id}`,
    sourceEventId: id,
    revision: revision(1),
    areaKey: areaKey(at),
    radarTimestampEpochMs: time,
    forecast: false,
    intensity,
    geometry: { polygons: [{ exterior: ring, holes: [] }] },
    bbox: box([ring]),
    centroid: { ...at },
    areaKm2: 100,
    motion: null,
    ...overrides,
  };
}

export function thunderstorm(
  id: string,
  at: Place,
  start: number,
  end: number,
  overrides: Partial<weatherV1.ThunderstormEvent> = {},
): weatherV1.ThunderstormEvent {
  const cell = square(at, 0.02);
  const threat = square({ lng: at.lng + 0.1, lat: at.lat }, 0.1);
  return {
    eventId: `tst_${id}`,
    sourceEventId: id,
    revision: revision(1),
    areaKey: areaKey(at),
    insertedEpochMs: start,
    startEpochMs: start,
    endEpochMs: end,
    severity: 'THUNDERSTORM_SEVERITY_MEDIUM',
    threshold: 3,
    meta: { country: 'TUR', state: '', city: 'Ankara', speedKmh: 38.9 },
    cell: {
      areaKm2: 9,
      speedKmh: 33.3,
      directionDeg: 255,
      flashRates: { inCloud: 4.33, cloudToGround: 0.34, total: 4.67 },
      centroid: { ...at },
      polygon: { exterior: cell, holes: [] },
    },
    threatPolygon: { exterior: threat, holes: [] },
    bbox: box([cell, threat]),
    ...overrides,
  };
}

export async function publishPrecipitations(stack: WeatherStack, events: weatherV1.PrecipitationEvent[]): Promise<void> {
  await stack.publish(
    TopicNames.WeatherPrecipitation,
    EventTypes.PrecipitationEvent,
    events.map((e) => ({ key: e.areaKey, value: weatherV1.PrecipitationEvent.encode(e) })),
  );
}

export async function publishThunderstorms(stack: WeatherStack, events: weatherV1.ThunderstormEvent[]): Promise<void> {
  await stack.publish(
    TopicNames.WeatherThunderstorm,
    EventTypes.ThunderstormEvent,
    events.map((e) => ({ key: e.areaKey, value: weatherV1.ThunderstormEvent.encode(e) })),
  );
}

/** One cloud-to-ground strike at `at`, now. */
export function strike(id: string, at: Place): weatherV1.LightningEvent {
  return {
    eventId: `ltg_${id}`,
    sourceEventId: id,
    revision: revision(1),
    areaKey: areaKey(at),
    timeEpochMs: Date.now(),
    type: 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND',
    location: { ...at },
    peakCurrentAmperes: -18_000,
    multiplicity: 1,
  };
}

export async function publishStrikes(stack: WeatherStack, events: weatherV1.LightningEvent[]): Promise<void> {
  await stack.publish(
    TopicNames.WeatherLightning,
    EventTypes.LightningEvent,
    events.map((e) => ({ key: e.areaKey, value: weatherV1.LightningEvent.encode(e) })),
  );
}

const HOUR = 3_600_000;

/**
 * One forecast run (one chunk, one event) with cells at the given places: temperature rising by a
 * degree per hour from `base`, humidity 60 %, a thunderstorm (code 95) in the third hour.
 */
export function forecastRun(
  runId: string,
  issue: number,
  firstHour: number,
  cells: Array<{ id: string; at: Place; base: number }>,
  hours = 72,
): weatherV1.ForecastEvent {
  const series = (metric: weatherV1.ForecastMetric, f: (h: number) => number) => ({ metric, values: Array.from({ length: hours }, (_, h) => f(h)) });
  return {
    eventId: `fcs_${runId}.0.sx`,
    sourceEventId: `${runId}#0`,
    revision: revision(1),
    areaKey: 'sxk',
    runId,
    model: 'icon-test',
    issueEpochMs: issue,
    runChunkIndex: 0,
    runChunkCount: 1,
    firstHourEpochMs: firstHour,
    hourCount: hours,
    cells: cells.map((c) => ({
      cellId: c.id,
      location: { ...c.at },
      elevationM: 100,
      series: [
        series('FORECAST_METRIC_TEMPERATURE', (h) => c.base + h),
        series('FORECAST_METRIC_HUMIDITY', () => 60),
        series('FORECAST_METRIC_WEATHER_CODE', (h) => (h === 2 ? 95 : 1)),
        series('FORECAST_METRIC_PRECIPITATION', (h) => (h % 2 === 0 ? 1 : 0)),
        series('FORECAST_METRIC_SHORTWAVE_SOLAR_RADIATION_GHI', () => 400),
        series('FORECAST_METRIC_WIND_SPEED', () => 12),
        series('FORECAST_METRIC_WIND_DIRECTION', () => 90),
      ],
    })),
  };
}

export async function publishForecast(stack: WeatherStack, event: weatherV1.ForecastEvent): Promise<void> {
  await stack.publish(TopicNames.WeatherForecast, EventTypes.ForecastEvent, [{ key: event.areaKey, value: weatherV1.ForecastEvent.encode(event) }]);
}

export { HOUR };
