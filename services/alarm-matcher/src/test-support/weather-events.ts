import { squareRing } from '@stormhook/geometry/testing';
import { publishOn, type MessageOf, type Publisher, type TopicNames } from '@stormhook/kafka';
import { enumValue, weatherV1, type DeepPartial, type EnumNameOf } from '@stormhook/proto';

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

type WeatherChannel =
  typeof TopicNames.WeatherLightning | typeof TopicNames.WeatherThunderstorm | typeof TopicNames.WeatherPrecipitation | typeof TopicNames.WeatherForecast;
type WeatherMessage = weatherV1.LightningEvent | weatherV1.ThunderstormEvent | weatherV1.PrecipitationEvent | weatherV1.ForecastEvent;

/** Publishes weather events as ingest does: keyed by area, one event id per revision. */
export async function publishWeather<N extends WeatherChannel>(
  publisher: Publisher,
  topic: N,
  events: ReadonlyArray<MessageOf<N> & WeatherMessage>,
): Promise<void> {
  await publishOn(
    publisher,
    topic,
    events.map((event) => ({ key: event.areaKey, message: event, eventId: `evt_${event.eventId}_r${event.revision?.revision ?? 1}` })),
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
      series: Object.entries(c.series).map(([metric, values]) => ({
        metric: enumValue(weatherV1.ForecastMetric, metric as EnumNameOf<typeof weatherV1.ForecastMetric>),
        values,
      })),
    })),
  });
}
