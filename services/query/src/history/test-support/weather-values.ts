import { weatherV1, type DeepPartial } from '@stormhook/proto';

let counter = 0;

/** A strike as ingest publishes it, at `ingestedMs`. */
export function lightning(lng: number, lat: number, ingestedMs: number, overrides: DeepPartial<weatherV1.LightningEvent> = {}): weatherV1.LightningEvent {
  const n = ++counter;
  return weatherV1.LightningEvent.create({
    eventId: `ltg_hist${n}`,
    sourceEventId: `hist${n}`,
    revision: { revision: 1, ingestedEpochMs: ingestedMs },
    areaKey: 'sxk',
    timeEpochMs: ingestedMs - 800,
    type: 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND',
    location: { lng, lat },
    peakCurrentAmperes: -21_000 - n,
    multiplicity: 2,
    ...overrides,
  });
}

function square(minLng: number, minLat: number, size: number) {
  return {
    points: [
      { lng: minLng, lat: minLat },
      { lng: minLng + size, lat: minLat },
      { lng: minLng + size, lat: minLat + size },
      { lng: minLng, lat: minLat + size },
      { lng: minLng, lat: minLat },
    ],
  };
}

/** A thunderstorm whose cell is a square at (lng, lat) and whose threat area reaches `threat` degrees east of it. */
export function thunderstorm(lng: number, lat: number, ingestedMs: number, threat = 0.3): weatherV1.ThunderstormEvent {
  const n = ++counter;
  return weatherV1.ThunderstormEvent.create({
    eventId: `tst_hist${n}`,
    sourceEventId: `EAF${n}`,
    revision: { revision: 1, ingestedEpochMs: ingestedMs },
    areaKey: 'sxk',
    startEpochMs: ingestedMs,
    endEpochMs: ingestedMs + 20 * 60_000,
    severity: 'THUNDERSTORM_SEVERITY_MEDIUM',
    cell: { areaKm2: 9, centroid: { lng: lng + 0.05, lat: lat + 0.05 }, polygon: { exterior: square(lng, lat, 0.1), holes: [] } },
    threatPolygon: { exterior: square(lng, lat, threat), holes: [] },
  });
}

export function precipitation(lng: number, lat: number, ingestedMs: number, size = 0.2): weatherV1.PrecipitationEvent {
  const n = ++counter;
  return weatherV1.PrecipitationEvent.create({
    eventId: `prc_hist${n}`,
    sourceEventId: `radar${n}`,
    revision: { revision: 1, ingestedEpochMs: ingestedMs },
    areaKey: 'sxk',
    radarTimestampEpochMs: ingestedMs - 60_000,
    intensity: 'PRECIPITATION_INTENSITY_MODERATE',
    geometry: { polygons: [{ exterior: square(lng, lat, size), holes: [] }] },
  });
}

export function forecast(lng: number, lat: number, ingestedMs: number): weatherV1.ForecastEvent {
  const n = ++counter;
  return weatherV1.ForecastEvent.create({
    eventId: `fct_hist${n}`,
    sourceEventId: `run${n}:0`,
    revision: { revision: 1, ingestedEpochMs: ingestedMs },
    areaKey: 'sxk',
    runId: `run${n}`,
    model: 'test',
    issueEpochMs: ingestedMs,
    runChunkIndex: 0,
    runChunkCount: 1,
    firstHourEpochMs: ingestedMs,
    hourCount: 1,
    cells: [
      { cellId: 'a', location: { lng, lat }, series: [{ metric: 'FORECAST_METRIC_TEMPERATURE', values: [21.5] }] },
      { cellId: 'b', location: { lng: lng + 0.25, lat }, series: [{ metric: 'FORECAST_METRIC_TEMPERATURE', values: [20] }] },
    ],
  });
}
