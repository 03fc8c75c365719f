import type { GridPoint } from './grid.js';
import { OPEN_METEO_VARIABLES } from './variables.js';

export interface ForecastRequest {
  /** e.g. https://api.open-meteo.com or a self-hosted instance; /v1/forecast is appended. */
  baseUrl: string;
  points: readonly GridPoint[];
  forecastDays: number;
  /** Open-Meteo model name; `best_match` lets Open-Meteo pick. */
  model: string;
  /** For the commercial API (customer-api.open-meteo.com); sent as `apikey`. */
  apiKey?: string | undefined;
}

/**
 * The /v1/forecast URL for a batch of points. Units are requested in the feed's canonical units and
 * times as epoch seconds in UTC, so usually nothing needs converting; the parser copes if a proxy or
 * an old instance answers otherwise.
 */
export function forecastUrl(req: ForecastRequest): URL {
  const url = new URL('v1/forecast', req.baseUrl.endsWith('/') ? req.baseUrl : `${req.baseUrl}/`);
  const q = url.searchParams;
  q.set('latitude', req.points.map((p) => p.p.lat.toFixed(4)).join(','));
  q.set('longitude', req.points.map((p) => p.p.lng.toFixed(4)).join(','));
  q.set('hourly', OPEN_METEO_VARIABLES.map((v) => v.variable).join(','));
  q.set('forecast_days', String(req.forecastDays));
  q.set('timezone', 'GMT');
  q.set('timeformat', 'unixtime');
  q.set('temperature_unit', 'celsius');
  q.set('wind_speed_unit', 'kmh');
  q.set('precipitation_unit', 'mm');
  if (req.model !== 'best_match') q.set('models', req.model);
  if (req.apiKey) q.set('apikey', req.apiKey);
  return url;
}
