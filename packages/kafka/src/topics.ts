import { alarmV1, feedV1, identityV1, notificationV1, weatherV1, type MessageCodec } from '@stormhook/proto';
import { EventTypes, type EventType } from './event-types.js';

/**
 * THE catalogue of Kafka topics: nothing else in the repository spells a topic name. Each topic is
 * defined once here: its name (a constant of {@link TopicNames}), its settings, the event type its
 * records carry and the protobuf codec of their value, so a consumer checks and decodes a record,
 * and a publisher encodes one, from the topic alone (see channel-record.ts and channel-events.ts).
 *
 * WARNING: a topic name is a contract with every producer, consumer, committed consumer-group offset
 * and (for `feed.*`) external data publisher. Renaming or removing a topic, or changing its partition
 * count (which moves keys to other partitions and breaks per-key ordering), needs a migration: add the
 * new `...v<N+1>` topic, dual-publish, move consumers, then retire the old one. Never edit in place.
 *
 * Names follow `<domain>.<event>.v<N>`.
 */

/** The name of every topic, for code that names one (a publisher, a consumer's handlers, a test). */
export const TopicNames = {
  FeedPrecipitation: 'feed.precipitation.v1',
  FeedLightning: 'feed.lightning.v1',
  FeedThunderstorm: 'feed.thunderstorm.v1',
  FeedForecast: 'feed.forecast.v1',
  WeatherPrecipitation: 'weather.precipitation.v1',
  WeatherLightning: 'weather.lightning.v1',
  WeatherThunderstorm: 'weather.thunderstorm.v1',
  WeatherForecast: 'weather.forecast.v1',
  RegistrationChanged: 'alarm.registration-changed.v1',
  AlarmTriggered: 'alarm.triggered.v1',
  DeliveryFailed: 'alarm.delivery-failed.v1',
  UserChanged: 'identity.user-changed.v1',
  MessageRequested: 'notification.message-requested.v1',
  DeadLetter: 'deadletter.records.v1',
} as const;

export type CleanupPolicy = 'delete' | 'compact';

export interface TopicSettings {
  partitions: number;
  retentionMs: number;
  cleanupPolicy: CleanupPolicy;
  description: string;
  /** Event types a record on this topic may carry; empty means any (the dead-letter topic). */
  eventTypes: readonly EventType[];
}

/** A topic's settings in the catalogue: a topic of one event type also names the codec of its value. */
interface CatalogueEntry extends TopicSettings {
  /** The protobuf message of the value; its typeName is the topic's one event type. */
  codec?: MessageCodec<unknown>;
}

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

export const TOPICS = {
  [TopicNames.FeedPrecipitation]: {
    partitions: 3,
    retentionMs: 7 * DAY,
    cleanupPolicy: 'delete',
    description: 'Raw radar precipitation observations as data publishers send them (public feed contract).',
    eventTypes: [EventTypes.PrecipitationObservation],
    codec: feedV1.PrecipitationObservation,
  },
  [TopicNames.FeedLightning]: {
    partitions: 3,
    retentionMs: 7 * DAY,
    cleanupPolicy: 'delete',
    description: 'Raw lightning strikes as data publishers send them (public feed contract).',
    eventTypes: [EventTypes.LightningStrike],
    codec: feedV1.LightningStrike,
  },
  [TopicNames.FeedThunderstorm]: {
    partitions: 3,
    retentionMs: 7 * DAY,
    cleanupPolicy: 'delete',
    description: 'Raw thunderstorm cells as data publishers send them (public feed contract).',
    eventTypes: [EventTypes.ThunderstormCell],
    codec: feedV1.ThunderstormCell,
  },
  [TopicNames.FeedForecast]: {
    partitions: 3,
    retentionMs: 7 * DAY,
    cleanupPolicy: 'delete',
    description: 'Raw forecast grids as data publishers send them (public feed contract).',
    eventTypes: [EventTypes.ForecastGrid],
    codec: feedV1.ForecastGrid,
  },
  // Normalised weather: keyed by area and 6 partitions wide, so alarm matching scales out by area.
  [TopicNames.WeatherPrecipitation]: {
    partitions: 6,
    retentionMs: 7 * DAY,
    cleanupPolicy: 'delete',
    description: 'Validated, de-duplicated precipitation events, keyed by area.',
    eventTypes: [EventTypes.PrecipitationEvent],
    codec: weatherV1.PrecipitationEvent,
  },
  [TopicNames.WeatherLightning]: {
    partitions: 6,
    retentionMs: 7 * DAY,
    cleanupPolicy: 'delete',
    description: 'Validated, de-duplicated lightning events, keyed by area.',
    eventTypes: [EventTypes.LightningEvent],
    codec: weatherV1.LightningEvent,
  },
  [TopicNames.WeatherThunderstorm]: {
    partitions: 6,
    retentionMs: 7 * DAY,
    cleanupPolicy: 'delete',
    description: 'Validated, de-duplicated thunderstorm events, keyed by area.',
    eventTypes: [EventTypes.ThunderstormEvent],
    codec: weatherV1.ThunderstormEvent,
  },
  [TopicNames.WeatherForecast]: {
    partitions: 6,
    retentionMs: 7 * DAY,
    cleanupPolicy: 'delete',
    description: 'Validated forecast events, keyed by area.',
    eventTypes: [EventTypes.ForecastEvent],
    codec: weatherV1.ForecastEvent,
  },
  // One partition: changes to a registration must arrive in order, and volume is tiny. Every matcher
  // reads it with its own group (broadcast); a matcher down longer than retention reloads from its database.
  [TopicNames.RegistrationChanged]: {
    partitions: 1,
    retentionMs: 1 * DAY,
    cleanupPolicy: 'delete',
    description: 'Broadcast of alarm registration changes to every alarm-matcher instance, keyed by registration.',
    eventTypes: [EventTypes.RegistrationChanged],
    codec: alarmV1.RegistrationChanged,
  },
  [TopicNames.AlarmTriggered]: {
    partitions: 6,
    retentionMs: 14 * DAY,
    cleanupPolicy: 'delete',
    description: 'An alarm registration matched a weather event; the notifier turns it into webhook deliveries.',
    eventTypes: [EventTypes.AlarmTriggered],
    codec: alarmV1.AlarmTriggered,
  },
  [TopicNames.DeliveryFailed]: {
    partitions: 3,
    retentionMs: 14 * DAY,
    cleanupPolicy: 'delete',
    description: 'A webhook delivery exhausted its retries and was marked dead.',
    eventTypes: [EventTypes.DeliveryFailed],
    codec: alarmV1.DeliveryFailed,
  },
  [TopicNames.UserChanged]: {
    partitions: 3,
    retentionMs: 7 * DAY,
    cleanupPolicy: 'delete',
    description: 'A user, account or subscription was created, changed or deleted, keyed by user.',
    eventTypes: [EventTypes.UserChanged],
    codec: identityV1.UserChanged,
  },
  [TopicNames.MessageRequested]: {
    partitions: 3,
    retentionMs: 3 * DAY,
    cleanupPolicy: 'delete',
    description: 'Request to send an SMS or e-mail (activation codes, password resets, alarm notices).',
    eventTypes: [EventTypes.MessageRequested],
    codec: notificationV1.MessageRequested,
  },
  // Long retention: dead letters are evidence for humans and the source for replays.
  [TopicNames.DeadLetter]: {
    partitions: 3,
    retentionMs: 30 * DAY,
    cleanupPolicy: 'delete',
    description: 'Poison records of every consumer: original key, value and headers kept, reason and source coordinates in deadletter-* headers.',
    eventTypes: [],
  },
} as const satisfies Record<string, CatalogueEntry>;

export type TopicName = keyof typeof TOPICS;

export interface TopicSpec extends TopicSettings {
  name: TopicName;
}

type Catalogue = typeof TOPICS;

/** The topics that carry one protobuf message, each a typed channel: every topic but the dead-letter one. */
export type ChannelName = { [N in TopicName]: Catalogue[N] extends { codec: MessageCodec<unknown> } ? N : never }[TopicName];

/** The decoded value of a record on channel `N`. */
export type MessageOf<N extends ChannelName> = Catalogue[N]['codec'] extends MessageCodec<infer T> ? T : never;

/** What a channel carries: the event type its records must say they hold, and the codec of their value. */
export interface ChannelSpec<N extends ChannelName> {
  name: N;
  eventType: EventType;
  codec: MessageCodec<MessageOf<N>>;
}

export const DEAD_LETTER_TOPIC: TopicName = TopicNames.DeadLetter;

export function isTopicName(name: string): name is TopicName {
  return Object.hasOwn(TOPICS, name);
}

export function topicSpec(name: TopicName): TopicSpec {
  const { partitions, retentionMs, cleanupPolicy, description, eventTypes } = TOPICS[name];
  return { name, partitions, retentionMs, cleanupPolicy, description, eventTypes };
}

export function isChannelName(name: TopicName): name is ChannelName {
  return 'codec' in TOPICS[name];
}

const channelSpecs = new Map<ChannelName, ChannelSpec<ChannelName>>();

/** The event type and codec of a channel (one object per channel: consumers look it up per record). */
export function channelSpec<N extends ChannelName>(name: N): ChannelSpec<N> {
  let spec = channelSpecs.get(name);
  if (spec === undefined) {
    const entry: CatalogueEntry = TOPICS[name];
    const [eventType] = entry.eventTypes;
    if (entry.codec === undefined || eventType === undefined) throw new Error(`${name} is not a channel of one event type`);
    spec = { name, eventType, codec: entry.codec as MessageCodec<MessageOf<ChannelName>> };
    channelSpecs.set(name, spec);
  }
  return spec as ChannelSpec<N>;
}

/** Every catalogue topic, for services that pre-create topics at start. */
export function allTopics(): TopicSpec[] {
  return (Object.keys(TOPICS) as TopicName[]).map(topicSpec);
}
