import type { ApiClient } from '../api/client.js';
import type { PrecipitationPage, ThunderstormPage } from '../api/types.js';
import { base64Bytes, decodePrecipitationFeatures } from './precipitation-proto.js';
import type { WeatherState } from './weather-state.js';

/** Storms of the last 20 minutes and rain of the last 10: what the map shows before the stream adds to it. */
const STORM_WINDOW_S = 20 * 60;
const RAIN_WINDOW_S = 10 * 60;
/** The geometry operation takes 10 events a call and is metered per call: the first load reads at most this many. */
const MAX_RAIN_EVENTS = 50;
/** The geometry operation's largest circle for a caller below POWER_USER, metres (interface.md 4.1, 8). */
const MAX_RADIUS_M = 200_000;

export interface LoadSummary {
  storms: number;
  rain: number;
  problems: string[];
}

/**
 * The map's first picture from the read operations (4.2, 4.3, 4.1): storms with their cells and
 * threat areas, and the newest rain areas with their polygons. Rain polygons are cropped to 200 km
 * around `center` unless the caller's role may ask for them whole.
 */
export async function loadInitialWeather(api: ApiClient, state: WeatherState, center: { lng: number; lat: number }, whole: boolean): Promise<LoadSummary> {
  const now = Date.now();
  const problems: string[] = [];
  let storms = 0;
  for (let pageNumber = 0; pageNumber < 5; pageNumber += 1) {
    const page = await api.post<ThunderstormPage>('/v1/thunderstorms/page', { backwardInterval: STORM_WINDOW_S, endTimeEpoch: now, pageNumber, pageSize: 100 });
    if (!page.ok) {
      problems.push(`storms: ${page.message}`);
      break;
    }
    for (const record of page.body.thunderstorms) state.thunderstormFromPage(record, now);
    storms += page.body.thunderstorms.length;
    if ((pageNumber + 1) * 100 >= page.body.totalRecords) break;
  }

  const rainPage = await api.post<PrecipitationPage>('/v1/precipitations/page', {
    backwardInterval: RAIN_WINDOW_S,
    endTimeEpoch: now,
    pageNumber: 0,
    pageSize: 100,
  });
  let rain = 0;
  if (!rainPage.ok) {
    problems.push(`rain: ${rainPage.message}`);
    return { storms, rain, problems };
  }
  // The newest scan first: with a cap, the current rain matters more than the rain of ten minutes ago.
  const records = rainPage.body.precipitations
    .filter((r) => !r.forecast)
    .sort((a, b) => b.radarTimeStamp - a.radarTimeStamp)
    .slice(0, MAX_RAIN_EVENTS);
  const byId = new Map(records.map((r) => [r.eventId, r]));
  for (let i = 0; i < records.length; i += 10) {
    const eventIds = records.slice(i, i + 10).map((r) => r.eventId);
    const answer = await api.post<string>('/v1/precipitations/geometry', whole ? { eventIds } : { eventIds, center, radius: MAX_RADIUS_M });
    if (!answer.ok) {
      problems.push(`rain areas: ${answer.message}`);
      break;
    }
    try {
      for (const feature of decodePrecipitationFeatures(base64Bytes(answer.body))) {
        const record = byId.get(feature.id);
        if (record && feature.polygons.length > 0) {
          state.rainFromPage(record, feature.polygons);
          rain += 1;
        }
      }
    } catch (error) {
      problems.push(`rain areas: unreadable answer (${error instanceof Error ? error.message : String(error)})`);
      break;
    }
  }
  return { storms, rain, problems };
}
