import { EventTypes, Outcomes, type ConsumedRecord, type Handler, type Outcome, type TopicName } from '@stormhook/kafka';
import type { Logger } from '@stormhook/logger';
import type { StoreForecast } from '../usecases/forecast/store-forecast.js';
import type { LightningMatcher } from '../usecases/matching/lightning-matcher.js';
import type { TrackedEventMatcher } from '../usecases/matching/tracked-matcher.js';
import { decodeForecast, decodeLightning, decodePrecipitation, decodeThunderstorm, type Decoded } from './weather-decoding.js';

export const FORECAST_TOPIC = 'weather.forecast.v1' as const satisfies TopicName;

/** The weather topics one consumer group reads; their partitions (by area) are spread over the instances. */
export const WEATHER_TOPICS = ['weather.lightning.v1', 'weather.thunderstorm.v1', 'weather.precipitation.v1', 'weather.forecast.v1'] as const satisfies readonly TopicName[];

const EXPECTED_TYPE: Record<(typeof WEATHER_TOPICS)[number], string> = {
  'weather.lightning.v1': EventTypes.LightningEvent,
  'weather.thunderstorm.v1': EventTypes.ThunderstormEvent,
  'weather.precipitation.v1': EventTypes.PrecipitationEvent,
  'weather.forecast.v1': EventTypes.ForecastEvent,
};

export interface WeatherHandlerDeps {
  lightning: LightningMatcher;
  tracked: TrackedEventMatcher;
  forecast: StoreForecast;
  logger: Logger;
}

async function run<T>(decoded: Decoded<T>, work: (value: T) => Promise<unknown>): Promise<Outcome> {
  if (!decoded.ok) return Outcomes.deadLetter(decoded.reason);
  await work(decoded.value);
  return Outcomes.ok();
}

/**
 * Decodes a weather record and hands it to its use case. Records that cannot be decoded are dead
 * letters; a database or broker failure throws, and the consumer retries the record.
 */
export function weatherHandler(deps: WeatherHandlerDeps): Handler {
  return async (record: ConsumedRecord): Promise<Outcome> => {
    const topic = record.topic as (typeof WEATHER_TOPICS)[number];
    const expected = EXPECTED_TYPE[topic];
    if (!expected) return Outcomes.deadLetter(`alarm-matcher does not read topic ${record.topic}`);
    if (record.headers.eventType !== expected) return Outcomes.deadLetter(`event type ${record.headers.eventType} on ${record.topic}; expected ${expected}`);
    switch (topic) {
      case 'weather.lightning.v1':
        return run(decodeLightning(record.value), (strike) => deps.lightning.handle(strike));
      case 'weather.thunderstorm.v1':
        return run(decodeThunderstorm(record.value), (storm) => deps.tracked.handleStorm(storm));
      case 'weather.precipitation.v1':
        return run(decodePrecipitation(record.value), (rain) => deps.tracked.handleRain(rain));
      case 'weather.forecast.v1':
        return run(decodeForecast(record.value), (chunk) => deps.forecast.handle(chunk));
    }
  };
}
