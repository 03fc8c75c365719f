import { Outcomes, TopicNames, type ChannelHandlers, type Outcome } from '@stormhook/kafka';
import type { Logger } from '@stormhook/logger';
import type { StoreForecast } from '../usecases/live/store-forecast.js';
import type { LightningMatcher } from '../usecases/live/lightning-matcher.js';
import type { TrackedEventMatcher } from '../usecases/live/tracked-matcher.js';
import { toForecastChunk, toRain, toStorm, toStrike, type Decoded } from '../decoding/weather-decoding.js';

export interface WeatherHandlerDeps {
  lightning: LightningMatcher;
  tracked: TrackedEventMatcher;
  forecast: StoreForecast;
  logger: Logger;
}

/** The weather channels one consumer group reads; their partitions (by area) are spread over the instances. */
export const WEATHER_CHANNELS = [
  TopicNames.WeatherLightning,
  TopicNames.WeatherThunderstorm,
  TopicNames.WeatherPrecipitation,
  TopicNames.WeatherForecast,
] as const;
type WeatherChannel = (typeof WEATHER_CHANNELS)[number];

async function run<T>(decoded: Decoded<T>, work: (value: T) => Promise<unknown>): Promise<Outcome> {
  if (!decoded.ok) return Outcomes.deadLetter(decoded.reason);
  await work(decoded.value);
  return Outcomes.ok();
}

/**
 * Hands each weather event, in the matcher's terms, to its use case. Events it cannot use are dead
 * letters; a database or broker failure throws, and the consumer retries the record.
 */
export function weatherHandlers(deps: WeatherHandlerDeps): ChannelHandlers<WeatherChannel> {
  return {
    [TopicNames.WeatherLightning]: (record) => run(toStrike(record.message), (strike) => deps.lightning.handle(strike)),
    [TopicNames.WeatherThunderstorm]: (record) => run(toStorm(record.message), (storm) => deps.tracked.handleStorm(storm)),
    [TopicNames.WeatherPrecipitation]: (record) => run(toRain(record.message), (rain) => deps.tracked.handleRain(rain)),
    [TopicNames.WeatherForecast]: (record) => run(toForecastChunk(record.message), (chunk) => deps.forecast.handle(chunk)),
  };
}
