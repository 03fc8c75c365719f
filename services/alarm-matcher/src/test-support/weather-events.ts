import { squareRing } from '@stormhook/geometry/testing';
import { EventTypes, type EventType, type Publisher, type TopicName } from '@stormhook/kafka';
import { weatherV1, type DeepPartial } from '@stormhook/proto';

let counter = 0;
const next = () => ++counter;

function ring(minLng: number, minLat: number, size: number) {
  return { points: squareRing(minLng, minLat, size).map(([lng, lat]) => ({ lng, lat })) };
}

export function lightningEvent(lng: number, lat: number, overrides: DeepPartial<weatherV1.LightningEvent> = {}): weatherV1.LightningEvent {
  const n = next();
  return weatherV1.LightningEvent.create({
    eventId: `ltg_t${n}`,
    sourceEventId: `t${n}`,
    revision: { revision: 1, ingestedEpochMs: Date.now() },
    areaKey: 'sxk',
    timeEpochMs: Date.now(),
    type: 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND',
    location: { lng, lat },
    peakCurrentAmperes: -25_000,
    multiplicity: 2,
    ...overrides,
  });
}

/** A thunderstorm with square cell and threat polygons (south-west corner and size in degrees). */
export function thunderstormEvent(
  cell: [number, number, number],
  threat: [number, number, number],
  overrides: DeepPartial<weatherV1.ThunderstormEvent> = {},
): weatherV1.ThunderstormEvent {
  const n = next();
  return weatherV1.ThunderstormEvent.create({
    eventId: `tst_t${n}`,
    sourceEventId: `EAF${n}`,
    revision: { revision: 1 },
    areaKey: 'sxk',
    insertedEpochMs: Date.now(),
    startEpochMs: Date.now(),
    endEpochMs: Date.now() + 20 * 60_000,
    severity: 'THUNDERSTORM_SEVERITY_MEDIUM',
    threshold: 3,
    meta: { country: 'TR', state: '', city: '', speedKmh: 30 },
    cell: {
      areaKm2: 9,
      speedKmh: 28,
      directionDeg: 255,
      flashRates: { inCloud: 4.33, cloudToGround: 0.34, total: 4.67 },
      centroid: { lng: cell[0] + cell[2] / 2, lat: cell[1] + cell[2] / 2 },
      polygon: { exterior: ring(...cell), holes: [] },
    },
    threatPolygon: { exterior: ring(...threat), holes: [] },
    ...overrides,
  });
}

export function precipitationEvent(area: [number, number, number], overrides: DeepPartial<weatherV1.PrecipitationEvent> = {}): weatherV1.PrecipitationEvent {
  const n = next();
  return weatherV1.PrecipitationEvent.create({
    eventId: `prc_t${n}`,
    sourceEventId: `p${n}`,
    revision: { revision: 1 },
    areaKey: 'sxk',
    radarTimestampEpochMs: Date.now(),
    forecast: false,
    intensity: 'PRECIPITATION_INTENSITY_MODERATE',
    geometry: { polygons: [{ exterior: ring(...area), holes: [] }] },
    centroid: { lng: area[0] + area[2] / 2, lat: area[1] + area[2] / 2 },
    areaKm2: 25,
    ...overrides,
  });
}

const TYPES: Record<string, EventType> = {
  'weather.lightning.v1': EventTypes.LightningEvent,
  'weather.thunderstorm.v1': EventTypes.ThunderstormEvent,
  'weather.precipitation.v1': EventTypes.PrecipitationEvent,
  'weather.forecast.v1': EventTypes.ForecastEvent,
};

/** Publishes weather events as ingest does: keyed by area, one event id per revision. */
export async function publishWeather(
  publisher: Publisher,
  topic: TopicName,
  events: ReadonlyArray<weatherV1.LightningEvent | weatherV1.ThunderstormEvent | weatherV1.PrecipitationEvent | weatherV1.ForecastEvent>,
): Promise<void> {
  const type = TYPES[topic];
  if (!type) throw new Error(`not a weather topic: ${topic}`);
  const encode = (event: (typeof events)[number]): Uint8Array => {
    switch (topic) {
      case 'weather.lightning.v1':
        return weatherV1.LightningEvent.encode(event as weatherV1.LightningEvent);
      case 'weather.thunderstorm.v1':
        return weatherV1.ThunderstormEvent.encode(event as weatherV1.ThunderstormEvent);
      case 'weather.precipitation.v1':
        return weatherV1.PrecipitationEvent.encode(event as weatherV1.PrecipitationEvent);
      default:
        return weatherV1.ForecastEvent.encode(event as weatherV1.ForecastEvent);
    }
  };
  await publisher.publish(
    topic,
    events.map((event) => ({ key: event.areaKey, value: encode(event), eventType: type, eventId: `evt_${event.eventId}_r${event.revision?.revision ?? 1}` })),
  );
}

/** One forecast event of run `runId`: hourly series per cell from `firstHourMs`. */
export function forecastEvent(
  runId: string,
  issueMs: number,
  firstHourMs: number,
  cells: Array<{ cellId: string; lng: number; lat: number; series: Partial<Record<'PRECIPITATION' | 'SNOWFALL' | 'WIND_GUSTS' | 'TEMPERATURE', number[]>> }>,
): weatherV1.ForecastEvent {
  const hours = Math.max(...cells.flatMap((c) => Object.values(c.series).map((v) => v.length)));
  return weatherV1.ForecastEvent.create({
    eventId: `fcs_${runId}.0.sxk`,
    sourceEventId: `${runId}#0`,
    revision: { revision: 1 },
    areaKey: 'sxk',
    runId,
    model: 'test',
    issueEpochMs: issueMs,
    runChunkIndex: 0,
    runChunkCount: 1,
    firstHourEpochMs: firstHourMs,
    hourCount: hours,
    cells: cells.map((c) => ({
      cellId: c.cellId,
      location: { lng: c.lng, lat: c.lat },
      series: Object.entries(c.series).map(([metric, values]) => ({ metric: `FORECAST_METRIC_${metric}` as weatherV1.ForecastMetric, values })),
    })),
  });
}
