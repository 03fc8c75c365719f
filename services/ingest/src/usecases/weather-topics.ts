import { EventTypes, type EventType, type TopicName } from '@stormhook/kafka';
import { weatherV1 } from '@stormhook/proto';
import type { FeedKind, NormalisedRecord } from '../domain/normalised.js';

/** Where each feed's normalised events go. */
export const WEATHER_TOPICS: Record<FeedKind, { topic: TopicName; eventType: EventType }> = {
  precipitation: { topic: 'weather.precipitation.v1', eventType: EventTypes.PrecipitationEvent },
  lightning: { topic: 'weather.lightning.v1', eventType: EventTypes.LightningEvent },
  thunderstorm: { topic: 'weather.thunderstorm.v1', eventType: EventTypes.ThunderstormEvent },
  forecast: { topic: 'weather.forecast.v1', eventType: EventTypes.ForecastEvent },
};

/** One encoded weather event with what the publisher needs to route it. */
export interface EncodedEvent {
  eventId: string;
  areaKey: string;
  value: Uint8Array;
}

/** Encodes the events of a normalised record at `revision` (the switch keeps each codec with its type). */
export function encodeEvents(record: NormalisedRecord, revision: weatherV1.EventRevision): EncodedEvent[] {
  switch (record.feed) {
    case 'precipitation':
      return record.events.map((e) => ({ eventId: e.eventId, areaKey: e.areaKey, value: weatherV1.PrecipitationEvent.encode({ ...e, revision }) }));
    case 'lightning':
      return record.events.map((e) => ({ eventId: e.eventId, areaKey: e.areaKey, value: weatherV1.LightningEvent.encode({ ...e, revision }) }));
    case 'thunderstorm':
      return record.events.map((e) => ({ eventId: e.eventId, areaKey: e.areaKey, value: weatherV1.ThunderstormEvent.encode({ ...e, revision }) }));
    case 'forecast':
      return record.events.map((e) => ({ eventId: e.eventId, areaKey: e.areaKey, value: weatherV1.ForecastEvent.encode({ ...e, revision }) }));
  }
}
