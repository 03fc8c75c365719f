/**
 * Every event type that crosses Kafka, as written in the `event-type` header. The value is the
 * fully qualified name of the protobuf message in the record value, so a consumer (or a human with
 * a dead letter in hand) knows which message to decode it with.
 *
 * WARNING: these strings are on the wire and in stored dead letters. Renaming one needs a migration
 * (consumers accepting both names first), exactly like renaming a topic.
 */
export const EventTypes = {
  PrecipitationObservation: 'stormhook.feed.v1.PrecipitationObservation',
  LightningStrike: 'stormhook.feed.v1.LightningStrike',
  ThunderstormCell: 'stormhook.feed.v1.ThunderstormCell',
  ForecastGrid: 'stormhook.feed.v1.ForecastGrid',
  PrecipitationEvent: 'stormhook.weather.v1.PrecipitationEvent',
  LightningEvent: 'stormhook.weather.v1.LightningEvent',
  ThunderstormEvent: 'stormhook.weather.v1.ThunderstormEvent',
  ForecastEvent: 'stormhook.weather.v1.ForecastEvent',
  RegistrationChanged: 'stormhook.alarm.v1.RegistrationChanged',
  AlarmTriggered: 'stormhook.alarm.v1.AlarmTriggered',
  DeliveryFailed: 'stormhook.alarm.v1.DeliveryFailed',
  UserChanged: 'stormhook.identity.v1.UserChanged',
  MessageRequested: 'stormhook.notification.v1.MessageRequested',
} as const;

export type EventType = (typeof EventTypes)[keyof typeof EventTypes];
