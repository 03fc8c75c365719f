import type { commonV1, feedV1 } from '@stormhook/proto';

/** Fixed "now" of unit tests: 2025-06-15T12:00:00Z. */
export const NOW = Date.UTC(2025, 5, 15, 12, 0, 0);

/** A closed ring around (lng, lat), half-size `d` degrees, counterclockwise unless `cw`. */
export function square(lng: number, lat: number, d: number, cw = false): commonV1.LinearRing {
  const points = [
    { lng: lng - d, lat: lat - d },
    { lng: lng + d, lat: lat - d },
    { lng: lng + d, lat: lat + d },
    { lng: lng - d, lat: lat + d },
    { lng: lng - d, lat: lat - d },
  ];
  return { points: cw ? points.reverse() : points };
}

/** Ankara, where most fixtures sit. */
export const ANKARA = { lng: 32.85, lat: 39.93 };

export function precipitation(overrides: Partial<feedV1.PrecipitationObservation> = {}, now = NOW): feedV1.PrecipitationObservation {
  return {
    sourceEventId: 'radar-1',
    version: 0,
    updatedEpochMs: 0,
    radarTimestampEpochMs: now - 60_000,
    forecast: false,
    intensity: 'PRECIPITATION_INTENSITY_MODERATE',
    geometry: { polygons: [{ exterior: square(ANKARA.lng, ANKARA.lat, 0.2), holes: [] }] },
    motion: { speedKmh: 30, directionDeg: 90 },
    ...overrides,
  };
}

export function lightning(overrides: Partial<feedV1.LightningStrike> = {}, now = NOW): feedV1.LightningStrike {
  return {
    sourceEventId: 'strike-1',
    version: 0,
    updatedEpochMs: 0,
    timeEpochMs: now - 5_000,
    type: 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND',
    latitude: ANKARA.lat,
    longitude: ANKARA.lng,
    peakCurrentAmperes: -24_000,
    multiplicity: 3,
    ...overrides,
  };
}

export function thunderstorm(overrides: Partial<feedV1.ThunderstormCell> = {}, now = NOW): feedV1.ThunderstormCell {
  return {
    sourceEventId: 'EAF202506151200001',
    version: 1,
    updatedEpochMs: now - 30_000,
    insertedEpochMs: now - 600_000,
    startEpochMs: now - 600_000,
    endEpochMs: now + 1_800_000,
    severity: 'THUNDERSTORM_SEVERITY_MEDIUM',
    threshold: 3,
    speedUnit: 'SPEED_UNIT_KILOMETRES_PER_HOUR',
    meta: { country: 'TUR', state: 'Ankara', city: 'Ankara', speed: 38.9 },
    cell: {
      areaKm2: 9,
      speed: 33.3,
      directionDeg: 255,
      flashRates: { inCloud: 4.33, cloudToGround: 0.34, total: 4.67 },
      centroid: { ...ANKARA },
      polygon: { exterior: square(ANKARA.lng, ANKARA.lat, 0.02), holes: [] },
    },
    threatPolygon: { exterior: square(ANKARA.lng - 0.1, ANKARA.lat, 0.15), holes: [] },
    ...overrides,
  };
}

const HOUR = 3_600_000;

/** A two-cell, three-hour chunk of a run issued an hour before `now`, starting at the hour of `now`. */
export function forecast(overrides: Partial<feedV1.ForecastGrid> = {}, now = NOW): feedV1.ForecastGrid {
  const hour = Math.floor(now / HOUR) * HOUR;
  const cell = (id: string, lat: number, lng: number): feedV1.GridCell => ({
    cellId: id,
    latitude: lat,
    longitude: lng,
    elevationM: 900,
    series: [
      { metric: 'FORECAST_METRIC_TEMPERATURE', values: [21.5, 23, 24.25] },
      { metric: 'FORECAST_METRIC_PRECIPITATION', values: [0, 0.5, Number.NaN] },
    ],
  });
  return {
    runId: 'sim-run-2025061511',
    version: 0,
    updatedEpochMs: 0,
    model: 'stormhook-sim',
    issueEpochMs: now - HOUR,
    chunkIndex: 0,
    chunkCount: 1,
    firstHourEpochMs: hour,
    hourCount: 3,
    // Ankara and Istanbul: two different area keys.
    cells: [cell('39.930_32.850', 39.93, 32.85), cell('41.010_28.980', 41.01, 28.98)],
    ...overrides,
  };
}
