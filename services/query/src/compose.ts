import type { Db } from 'mongodb';
import type { Logger } from '@stormhook/logger';
import { weatherV1 } from '@stormhook/proto';
import { ForecastStore } from './forecast/forecast-store.js';
import { HistoryStore } from './history/persistence/history-store.js';
import { ForecastRepository } from './persistence/forecast-repository.js';
import { PayloadStore } from './persistence/payload-store.js';
import { SegmentLog } from './persistence/segment-log.js';
import { INDEX_ENTRY_CODEC } from './read-models/entry.js';
import { EventReadModel } from './read-models/event-read-model.js';
import type { WeatherSinks } from './usecases/accept-weather.js';

export interface ReadModelSettings {
  QUERY_JOURNAL_MAX_ENTRIES: number;
  QUERY_JOURNAL_MAX_AGE_MS: number;
  QUERY_GEOMETRY_CACHE_VERTICES: number;
  QUERY_THUNDERSTORM_CACHE_RECORDS: number;
  QUERY_RETENTION_MS: number;
}

function vertexCount(
  geometry: { polygons: Array<{ exterior?: { points: unknown[] } | null; holes: Array<{ points: unknown[] }> }> } | null | undefined,
): number {
  let n = 0;
  for (const p of geometry?.polygons ?? []) {
    n += p.exterior?.points.length ?? 0;
    for (const h of p.holes) n += h.points.length;
  }
  return n;
}

/** The read models over the service's database (collections named in each class). */
export function buildReadModels(db: Db, settings: ReadModelSettings, logger: Logger): WeatherSinks {
  const log = (name: string) =>
    new SegmentLog(db, name, { codec: INDEX_ENTRY_CODEC, maxEntries: settings.QUERY_JOURNAL_MAX_ENTRIES, maxAgeMs: settings.QUERY_JOURNAL_MAX_AGE_MS, logger });
  return {
    precipitations: new EventReadModel<weatherV1.PrecipitationEvent>({
      log: log('precipitation'),
      payloads: new PayloadStore(db, 'precipitation'),
      decode: (bytes) => weatherV1.PrecipitationEvent.decode(bytes),
      cacheWeight: settings.QUERY_GEOMETRY_CACHE_VERTICES,
      weigh: (event) => Math.max(1, vertexCount(event.geometry)),
      logger,
    }),
    thunderstorms: new EventReadModel<weatherV1.ThunderstormEvent>({
      log: log('thunderstorm'),
      payloads: new PayloadStore(db, 'thunderstorm'),
      decode: (bytes) => weatherV1.ThunderstormEvent.decode(bytes),
      cacheWeight: settings.QUERY_THUNDERSTORM_CACHE_RECORDS,
      weigh: () => 1,
      logger,
    }),
    forecasts: new ForecastStore(),
    forecastRepository: new ForecastRepository(db),
  };
}

/** Rebuilds the in-memory read models from the database (events past retention are left out). */
export async function loadReadModels(sinks: WeatherSinks, settings: ReadModelSettings, logger: Logger, now = Date.now()): Promise<void> {
  const cutoff = now - settings.QUERY_RETENTION_MS;
  const precipitation = await sinks.precipitations.load(cutoff);
  const thunderstorm = await sinks.thunderstorms.load(cutoff);
  const forecastEvents = await sinks.forecastRepository.forEach((bytes) => sinks.forecasts.apply(weatherV1.ForecastEvent.decode(bytes)));
  logger.info({ precipitation, thunderstorm, forecastEvents, forecastRuns: sinks.forecasts.runCount }, 'read models loaded from the database');
}

export interface HistorySettings {
  QUERY_RETENTION_MS: number;
  QUERY_HISTORY_JOURNAL_MAX_RECORDS: number;
  QUERY_HISTORY_JOURNAL_MAX_AGE_MS: number;
  QUERY_HISTORY_CACHE_BYTES: number;
}

/** The weather history over the service's database (history_* collections); load() before use. */
export function buildHistory(db: Db, settings: HistorySettings, logger: Logger): HistoryStore {
  return new HistoryStore(db, {
    retentionMs: settings.QUERY_RETENTION_MS,
    journalMaxRecords: settings.QUERY_HISTORY_JOURNAL_MAX_RECORDS,
    journalMaxAgeMs: settings.QUERY_HISTORY_JOURNAL_MAX_AGE_MS,
    cacheBytes: settings.QUERY_HISTORY_CACHE_BYTES,
    logger,
  });
}
