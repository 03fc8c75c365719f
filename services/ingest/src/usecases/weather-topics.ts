import { publishOn, TopicNames, type ChannelName, type Publisher, type PublishResult } from '@stormhook/kafka';
import type { weatherV1 } from '@stormhook/proto';
import { revisionEventId } from '../dedup/content-hash.js';
import type { FeedKind, NormalisedRecord } from '../domain/normalised.js';

/** Each feed's route through ingest: the raw channel it arrives on, and the channel its normalised events go to. */
export const FEED_ROUTES = {
  precipitation: { feed: TopicNames.FeedPrecipitation, weather: TopicNames.WeatherPrecipitation },
  lightning: { feed: TopicNames.FeedLightning, weather: TopicNames.WeatherLightning },
  thunderstorm: { feed: TopicNames.FeedThunderstorm, weather: TopicNames.WeatherThunderstorm },
  forecast: { feed: TopicNames.FeedForecast, weather: TopicNames.WeatherForecast },
} as const satisfies Record<FeedKind, { feed: ChannelName; weather: ChannelName }>;

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
      return publishOn(sink, FEED_ROUTES.precipitation.weather, record.events.map(event));
    case 'lightning':
      return publishOn(sink, FEED_ROUTES.lightning.weather, record.events.map(event));
    case 'thunderstorm':
      return publishOn(sink, FEED_ROUTES.thunderstorm.weather, record.events.map(event));
    case 'forecast':
      return publishOn(sink, FEED_ROUTES.forecast.weather, record.events.map(event));
  }
}
