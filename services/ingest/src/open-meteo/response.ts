import { FORECAST_METRICS, type ForecastMetricName } from '../domain/forecast-metrics.js';
import { converterFor, OPEN_METEO_VARIABLES } from './variables.js';

/** One location of an Open-Meteo /v1/forecast answer, as far as this adapter reads it. */
interface OpenMeteoLocation {
  latitude: number;
  longitude: number;
  elevation?: number;
  utc_offset_seconds?: number;
  hourly_units?: Record<string, string>;
  hourly?: Record<string, unknown>;
}

/** One location's forecast, times in epoch ms and values in the feed's canonical units. */
export interface LocationForecast {
  /** Model grid point Open-Meteo answered for (it snaps to its own grid). */
  modelLat: number;
  modelLng: number;
  elevationM?: number;
  firstHourEpochMs: number;
  hourCount: number;
  series: Array<{ metric: ForecastMetricName; values: number[] }>;
}

export class OpenMeteoFormatError extends Error {
  override name = 'OpenMeteoFormatError';
}

const HOUR = 3_600_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Times as epoch ms: `timeformat=unixtime` gives epoch seconds, iso8601 gives local wall time plus the offset. */
function parseTimes(raw: unknown[], unit: string | undefined, offsetSeconds: number, where: string): number[] {
  return raw.map((t, i) => {
    if (typeof t === 'number' && (unit === 'unixtime' || unit === undefined)) return t * 1000;
    if (typeof t === 'string') {
      const ms = Date.parse(`${t.length === 16 ? `${t}:00` : t}Z`) - offsetSeconds * 1000;
      if (Number.isFinite(ms)) return ms;
    }
    throw new OpenMeteoFormatError(`${where}.hourly.time[${i}] is not a time: ${JSON.stringify(t)}`);
  });
}

function parseLocation(raw: unknown, index: number): LocationForecast {
  const where = `location ${index}`;
  if (!isRecord(raw)) throw new OpenMeteoFormatError(`${where} is not an object`);
  const loc = raw as unknown as OpenMeteoLocation;
  if (typeof loc.latitude !== 'number' || typeof loc.longitude !== 'number') throw new OpenMeteoFormatError(`${where} has no latitude/longitude`);
  if (!isRecord(loc.hourly) || !Array.isArray(loc.hourly['time'])) throw new OpenMeteoFormatError(`${where} has no hourly.time array`);
  const units = isRecord(loc.hourly_units) ? (loc.hourly_units as Record<string, string>) : {};
  const times = parseTimes(loc.hourly['time'] as unknown[], units['time'], loc.utc_offset_seconds ?? 0, where);
  if (times.length === 0) throw new OpenMeteoFormatError(`${where} has no hours`);
  times.forEach((t, i) => {
    if (t !== times[0]! + i * HOUR) throw new OpenMeteoFormatError(`${where}.hourly.time is not hourly at index ${i}`);
  });

  const series: LocationForecast['series'] = [];
  for (const { variable, metric } of OPEN_METEO_VARIABLES) {
    const values = loc.hourly[variable];
    if (values === undefined) continue; // the model does not provide it
    if (!Array.isArray(values) || values.length !== times.length) {
      throw new OpenMeteoFormatError(`${where}.hourly.${variable} must be an array of ${times.length} values`);
    }
    const canonical = FORECAST_METRICS[metric].unit;
    const unit = units[variable] ?? '';
    const convert = converterFor(canonical, unit);
    if (!convert) throw new OpenMeteoFormatError(`${where}: unit "${unit}" of ${variable} cannot be converted to ${canonical}`);
    series.push({
      metric,
      values: values.map((v, i) => {
        if (v === null) return Number.NaN; // Open-Meteo's "no value for this hour"
        if (typeof v !== 'number') throw new OpenMeteoFormatError(`${where}.hourly.${variable}[${i}] is not a number`);
        return convert(v);
      }),
    });
  }
  return {
    modelLat: loc.latitude,
    modelLng: loc.longitude,
    ...(typeof loc.elevation === 'number' && Number.isFinite(loc.elevation) ? { elevationM: loc.elevation } : {}),
    firstHourEpochMs: times[0]!,
    hourCount: times.length,
    series,
  };
}

/**
 * Parses an Open-Meteo forecast answer: one object for one location, an array for several (in the
 * order of the requested coordinates). Checks the shape and converts units; throws
 * OpenMeteoFormatError naming what is wrong.
 */
export function parseForecastResponse(body: unknown, expectedLocations: number): LocationForecast[] {
  if (isRecord(body) && body['error'] === true) {
    throw new OpenMeteoFormatError(`Open-Meteo answered an error: ${String(body['reason'] ?? 'no reason given')}`);
  }
  const list = Array.isArray(body) ? body : [body];
  if (list.length !== expectedLocations) {
    throw new OpenMeteoFormatError(`expected ${expectedLocations} locations in the answer, got ${list.length}`);
  }
  return list.map(parseLocation);
}
