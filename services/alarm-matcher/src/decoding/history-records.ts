import { weatherV1 } from '@stormhook/proto';
import type { Rain, Storm, Strike } from '../domain/weather-events.js';
import type { ForecastChunk } from '../forecast/forecast-chunk.js';
import type { HistoryRecord } from '../ports/weather-history.js';
import { toForecastChunk, toRain, toStorm, toStrike, type Decoded } from './weather-decoding.js';

/** A stored weather record in the matcher's terms, with the time the live path saw it. */
export type WeatherRecord = { ingestedMs: number } & (
  | { kind: 'LIGHTNING'; strike: Strike }
  | { kind: 'THUNDERSTORM'; storm: Storm }
  | { kind: 'PRECIPITATION'; rain: Rain }
  | { kind: 'FORECAST'; chunk: ForecastChunk }
);

/**
 * Decodes a history record exactly as the weather consumer decodes the same value from its topic:
 * the topic's protobuf codec, then the matcher's decoder (weather-decoding.ts). A value the live
 * path would dead-letter answers its reason; a value that is not protobuf at all throws.
 */
export function decodeHistoryRecord(record: HistoryRecord): Decoded<WeatherRecord> {
  const ingestedMs = record.ingestedMs;
  switch (record.kind) {
    case 'LIGHTNING': {
      const decoded = toStrike(weatherV1.LightningEvent.decode(record.value));
      return decoded.ok ? { ok: true, value: { ingestedMs, kind: 'LIGHTNING', strike: decoded.value } } : decoded;
    }
    case 'THUNDERSTORM': {
      const decoded = toStorm(weatherV1.ThunderstormEvent.decode(record.value));
      return decoded.ok ? { ok: true, value: { ingestedMs, kind: 'THUNDERSTORM', storm: decoded.value } } : decoded;
    }
    case 'PRECIPITATION': {
      const decoded = toRain(weatherV1.PrecipitationEvent.decode(record.value));
      return decoded.ok ? { ok: true, value: { ingestedMs, kind: 'PRECIPITATION', rain: decoded.value } } : decoded;
    }
    case 'FORECAST': {
      const decoded = toForecastChunk(weatherV1.ForecastEvent.decode(record.value));
      return decoded.ok ? { ok: true, value: { ingestedMs, kind: 'FORECAST', chunk: decoded.value } } : decoded;
    }
  }
}
