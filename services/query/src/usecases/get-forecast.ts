import { enumName, queryV1 } from '@stormhook/proto';
import { dailyValues, hourFrames, hourlyValues, runHours, type HourFrame, type LocalDay, type SeriesContext } from '../forecast/forecast-series.js';
import { DAILY_METRICS, HOURLY_METRICS, sourceName, sourcesOf, validFor, type ForecastKindName } from '../forecast/metric-catalogue.js';
import { ForecastMemo } from '../forecast/forecast-memo.js';
import type { ForecastRun } from '../forecast/forecast-store.js';
import { localDate, localMidnight, timezoneAt } from '../forecast/timezone.js';
import type { QueryContext } from './context.js';
import { invalidArgument, notFound, outsideGeography } from './errors.js';
import { describeAllowed, resolveGeography } from './geography.js';
import { checkPoint, LIMITS, Problems } from './limits.js';

const HOUR = 3_600_000;

function validate(request: queryV1.GetForecastRequest): ForecastKindName {
  const p = new Problems();
  const kind = enumName(queryV1.ForecastKind, request.kind);
  p.check(kind !== undefined, 'kind must be CURRENT, HOURLY or DAILY');
  checkPoint(p, 'location', request.location);
  p.check(request.metrics.length >= 1, 'metrics must have at least 1 item');
  const days = request.forecastDays;
  if (days !== undefined) {
    p.check(Number.isInteger(days) && days >= LIMITS.forecastDays.min && days <= LIMITS.forecastDays.max, 'forecastDays must be between 1 and 14');
  }
  if (request.startEpochMs !== undefined)
    p.check(Number.isInteger(request.startEpochMs) && request.startEpochMs >= 0, 'startTime must be at least 0 (epoch milliseconds)');
  const tilt = request.panelTiltDeg;
  if (tilt !== undefined) p.check(Number.isFinite(tilt) && tilt >= 0 && tilt <= 90, 'solarPanelTiltForRadiation must be between 0 and 90 (degrees)');
  const azimuth = request.panelAzimuthDeg;
  if (azimuth !== undefined)
    p.check(Number.isFinite(azimuth) && azimuth >= -180 && azimuth <= 180, 'solarPanelAzimuthForRadiation must be between -180 and 180 (degrees)');
  if (p.list.length > 0) throw invalidArgument(p.list);
  return kind!;
}

interface SeriesAnswer {
  metricForecasts: queryV1.MetricForecast[];
  warnings: string[];
}

/** Keyed by immutable cell objects (a WeakMap): exact, and bounded by the cells the store holds. */
const forecastMemo = new ForecastMemo<SeriesAnswer>();

/** The metric series and warnings of one request (the costly part of an answer: time formatting, sun positions). */
function computeSeries(kind: ForecastKindName, run: ForecastRun, series: SeriesContext, metrics: readonly string[], start: number, days: number): SeriesAnswer {
  const { cell, zone } = series;
  const warnings: string[] = [];
  const metricForecasts: queryV1.MetricForecast[] = [];
  // The hour in progress comes first: "current" means now, not the next whole hour.
  const hours = runHours(cell, Math.floor(start / HOUR) * HOUR, localMidnight(start, zone, days));
  const localDays: LocalDay[] = Array.from({ length: days }, (_, i) => {
    const dayStart = localMidnight(start, zone, i);
    return { start: dayStart, end: localMidnight(start, zone, i + 1), date: localDate(dayStart, zone) };
  });
  const partialDays = new Set<string>();
  let frames: HourFrame[] | undefined;
  for (const metric of metrics) {
    if (!validFor(kind, metric)) {
      warnings.push(`Metric not valid for this request: ${metric}`);
      continue;
    }
    const definition = kind === 'DAILY' ? DAILY_METRICS[metric]! : HOURLY_METRICS[metric]!;
    const missing = sourcesOf(definition.derivation).filter((s) => !cell.series.has(s));
    if (missing.length > 0) {
      warnings.push(`Metric ${metric} is not provided by the forecast model ${run.model} (missing ${missing.map(sourceName).join(', ')})`);
      continue;
    }
    if (kind === 'DAILY') {
      const { values, partial } = dailyValues(DAILY_METRICS[metric]!, series, localDays);
      partial.forEach((d) => partialDays.add(d));
      metricForecasts.push({ metric, unit: definition.unit, forecasts: values });
    } else {
      frames ??= hourFrames(series, hours);
      metricForecasts.push({ metric, unit: definition.unit, forecasts: hourlyValues(HOURLY_METRICS[metric]!, series, frames) });
    }
  }
  if (kind !== 'DAILY' && hours.length === 0) warnings.push(`The latest forecast run (${run.runId}) has no hourly values in the requested period`);
  for (const date of [...partialDays].sort())
    warnings.push(`Daily values for ${date} cover only part of the day: the forecast run does not span all of its hours`);
  return { metricForecasts, warnings };
}

/**
 * Point forecasts (interface.md 4.4 and the incumbent's hourly and daily operations), from the
 * nearest grid cell of the latest run covering the point:
 *
 * - CURRENT and HOURLY: the hours from the start (now by default; its hour in progress first) to
 *   the end of the `forecastDays`-th local day, counting the start's day;
 * - DAILY: `forecastDays` local calendar days from the start's day.
 *
 * Metric names not valid for the operation, and metrics the model lacks, become warnings.
 */
export async function getForecast(ctx: QueryContext, request: queryV1.GetForecastRequest): Promise<queryV1.GetForecastResponse> {
  const kind = validate(request);
  const point = request.location!;
  const filter = resolveGeography(request.geography, ctx.areas());
  if (!filter.all) {
    const area = ctx.areas()?.areaAt(point.lng, point.lat);
    if (!area || !filter.keys.has(area.key)) {
      const { country, region } = describeAllowed(filter.allowed);
      throw outsideGeography(point.lat, point.lng, country, region);
    }
  }
  const nearest = ctx.forecasts.nearest(point.lng, point.lat, ctx.forecastSettings.maxCellDistanceM);
  if (!nearest) throw notFound(`No forecast is available for the location [${point.lat}, ${point.lng}]`);
  const { run, cell, distanceM } = nearest;
  const zone = timezoneAt(point.lng, point.lat, ctx.areas());
  const start = request.startEpochMs ?? ctx.now();
  const days = request.forecastDays ?? (kind === 'CURRENT' ? 1 : 7);
  const series: SeriesContext = { cell, zone, tiltDeg: request.panelTiltDeg ?? 0, azimuthDeg: request.panelAzimuthDeg ?? 0 };
  const metrics = [...new Set(request.metrics)];
  // The values depend on the start only through its hour and its local date (which fix the hours
  // and the local days): requests for one cell within an hour share them.
  const key = [kind, zone, Math.floor(start / HOUR), localDate(start, zone), days, series.tiltDeg, series.azimuthDeg, ...metrics].join('|');
  const { metricForecasts, warnings } = forecastMemo.get(cell, key, () => computeSeries(kind, run, series, metrics, start, days));
  return {
    location: { lng: cell.lng, lat: cell.lat },
    requestedLocation: { lng: point.lng, lat: point.lat },
    timezone: zone,
    ...(cell.elevationM !== undefined ? { elevationM: cell.elevationM } : {}),
    weatherIconUrlBase: ctx.forecastSettings.weatherIconUrlBase,
    metricForecasts,
    warnings,
    cellId: cell.id,
    distanceM: Math.round(distanceM),
    model: run.model,
    runId: run.runId,
    issueEpochMs: run.issue,
  };
}
