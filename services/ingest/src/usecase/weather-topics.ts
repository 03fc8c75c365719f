import { publishOn, TopicNames, type ChannelName, type Publisher, type PublishResult } from '@stormhook/kafka';
import type { weatherV1 } from '@stormhook/proto';
import { revisionEventId } from '../dedup/content-hash.js';
import type { FeedKind, NormalisedRecord } from '../domain/normalised.js';

/** Where each feed's normalised events go. */
export const WEATHER_CHANNELS = {
  precipitation: TopicNames.WeatherPrecipitation,
  lightning: TopicNames.WeatherLightning,
  thunderstorm: TopicNames.WeatherThunderstorm,
  forecast: TopicNames.WeatherForecast,
} as const satisfies Record<FeedKind, ChannelName>;

/** The part of the Kafka publisher this use case needs (a port: tests pass a fake). */
export type WeatherSink = Pick<Publisher, 'publish'>;

/**
 * Publishes the events of a normalised record at `revision` on its feed's weather channel, keyed by
 * area, each with an event id that is the same for every publication of this revision (the switch
 * keeps each message with its channel).
 */
export function publishWeather(sink: WeatherSink, record: NormalisedRecord, revision: weatherV1.EventRevision): Promise<PublishResult> {
  const event = <E extends { eventId: string; areaKey: string }>(e: E) => ({
    key: e.areaKey,
    message: { ...e, revision },
    eventId: revisionEventId(e.eventId, revision.revision),
  });
  switch (record.feed) {
    case 'precipitation':
      return publishOn(sink, WEATHER_CHANNELS.precipitation, record.events.map(event));
    case 'lightning':
      return publishOn(sink, WEATHER_CHANNELS.lightning, record.events.map(event));
    case 'thunderstorm':
      return publishOn(sink, WEATHER_CHANNELS.thunderstorm, record.events.map(event));
    case 'forecast':
      return publishOn(sink, WEATHER_CHANNELS.forecast, record.events.map(event));
  }
}
