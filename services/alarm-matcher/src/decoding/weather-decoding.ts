import { bboxOfMultiPolygon, centroidOf, type MultiPolygon, type Position, type Ring } from '@stormhook/geometry';
import { enumName, weatherV1, type commonV1 } from '@stormhook/proto';
import type { HourlyMetric, HourlySeries } from '../forecast/daily.js';
import type { Rain, Storm, Strike } from '../domain/weather-events.js';
import type { ForecastChunk } from '../forecast/forecast-chunk.js';

/** A weather event in the matcher's terms, or why the record cannot be used (it then goes to the dead-letter topic). */
export type Decoded<T> = { ok: true; value: T } | { ok: false; reason: string };

function ringOf(linear: commonV1.LinearRing | null | undefined): Ring {
  return (linear?.points ?? []).map((p) => [p.lng, p.lat] as const);
}

function polygonOf(polygon: commonV1.Polygon | null | undefined): MultiPolygon {
  const exterior = ringOf(polygon?.exterior);
  if (exterior.length < 4) return [];
  return [{ exterior, holes: (polygon?.holes ?? []).map(ringOf).filter((hole) => hole.length >= 4) }];
}

function multiOf(multi: commonV1.MultiPolygon | null | undefined): MultiPolygon {
  return (multi?.polygons ?? []).flatMap((polygon) => polygonOf(polygon));
}

export function toStrike(e: weatherV1.LightningEvent): Decoded<Strike> {
  const type = enumName(weatherV1.LightningType, e.type);
  if (!type) return { ok: false, reason: `LightningEvent ${e.eventId} has no known type (${e.type})` };
  if (!e.location) return { ok: false, reason: `LightningEvent ${e.eventId} has no location` };
  return {
    ok: true,
    value: {
      eventId: e.eventId,
      sourceEventId: e.sourceEventId,
      revision: e.revision?.revision ?? 1,
      timeMs: e.timeEpochMs,
      type,
      lng: e.location.lng,
      lat: e.location.lat,
      peakCurrentA: e.peakCurrentAmperes,
      ...(e.inCloudHeightM !== undefined ? { inCloudHeightM: e.inCloudHeightM } : {}),
      multiplicity: Math.max(1, e.multiplicity),
    },
  };
}

export function toStorm(e: weatherV1.ThunderstormEvent): Decoded<Storm> {
  const severity = enumName(weatherV1.ThunderstormSeverity, e.severity);
  if (!severity) return { ok: false, reason: `ThunderstormEvent ${e.eventId} has no known severity (${e.severity})` };
  const cellPolygon = polygonOf(e.cell?.polygon);
  const threat = polygonOf(e.threatPolygon);
  if (cellPolygon.length === 0 && threat.length === 0) return { ok: false, reason: `ThunderstormEvent ${e.eventId} has neither a cell nor a threat polygon` };
  const centroid: Position = e.cell?.centroid ? [e.cell.centroid.lng, e.cell.centroid.lat] : centroidOf(cellPolygon.length > 0 ? cellPolygon : threat);
  const metaSpeed = e.meta?.speedKmh ?? 0;
  return {
    ok: true,
    value: {
      eventId: e.eventId,
      sourceEventId: e.sourceEventId,
      revision: e.revision?.revision ?? 1,
      insertedMs: e.insertedEpochMs,
      observedMs: e.revision?.sourceUpdatedEpochMs || e.revision?.ingestedEpochMs || e.insertedEpochMs,
      startMs: e.startEpochMs,
      endMs: e.endEpochMs,
      severity,
      threshold: e.threshold,
      speedKmh: metaSpeed > 0 ? metaSpeed : (e.cell?.speedKmh ?? 0),
      meta: { country: e.meta?.country ?? '', state: e.meta?.state ?? '', city: e.meta?.city ?? '' },
      cell: {
        areaKm2: e.cell?.areaKm2 ?? 0,
        speedKmh: e.cell?.speedKmh ?? 0,
        directionDeg: e.cell?.directionDeg ?? 0,
        flashRates: { inCloud: e.cell?.flashRates?.inCloud ?? 0, cloudToGround: e.cell?.flashRates?.cloudToGround ?? 0, total: e.cell?.flashRates?.total ?? 0 },
        centroid,
        polygon: cellPolygon,
        box: bboxOfMultiPolygon(cellPolygon),
      },
      threat,
      threatBox: bboxOfMultiPolygon(threat),
    },
  };
}

export function toRain(e: weatherV1.PrecipitationEvent): Decoded<Rain> {
  const intensity = enumName(weatherV1.PrecipitationIntensity, e.intensity);
  if (!intensity) return { ok: false, reason: `PrecipitationEvent ${e.eventId} has no known intensity (${e.intensity})` };
  const geometry = multiOf(e.geometry);
  if (geometry.length === 0) return { ok: false, reason: `PrecipitationEvent ${e.eventId} has no geometry` };
  return {
    ok: true,
    value: {
      eventId: e.eventId,
      sourceEventId: e.sourceEventId,
      revision: e.revision?.revision ?? 1,
      timeMs: e.radarTimestampEpochMs,
      forecast: e.forecast,
      intensity,
      ...(e.rainRateMmPerH !== undefined ? { rainRateMmPerH: e.rainRateMmPerH } : {}),
      ...(e.motion ? { motion: { speedKmh: e.motion.speedKmh, directionDeg: e.motion.directionDeg } } : {}),
      geometry,
      box: bboxOfMultiPolygon(geometry),
      centroid: e.centroid ? [e.centroid.lng, e.centroid.lat] : centroidOf(geometry),
      areaKm2: e.areaKm2,
    },
  };
}

/** Hourly metrics forecast alarms use; the others are not stored. */
const METRICS: Partial<Record<weatherV1.ForecastMetric, HourlyMetric>> = {
  FORECAST_METRIC_PRECIPITATION: 'PRECIPITATION',
  FORECAST_METRIC_SNOWFALL: 'SNOWFALL',
  FORECAST_METRIC_WIND_GUSTS: 'WIND_GUSTS',
  FORECAST_METRIC_TEMPERATURE: 'TEMPERATURE',
};

export function toForecastChunk(e: weatherV1.ForecastEvent): Decoded<ForecastChunk> {
  if (!e.runId) return { ok: false, reason: `ForecastEvent ${e.eventId} has no run id` };
  const cells: ForecastChunk['cells'] = [];
  for (const cell of e.cells) {
    if (!cell.location || !cell.cellId) continue;
    const series: HourlySeries[] = [];
    for (const s of cell.series) {
      const metric = METRICS[s.metric];
      if (metric) series.push({ metric, values: s.values });
    }
    cells.push({ cellId: cell.cellId, location: [cell.location.lng, cell.location.lat], series });
  }
  return { ok: true, value: { runId: e.runId, issueMs: e.issueEpochMs, firstHourMs: e.firstHourEpochMs, cells } };
}
