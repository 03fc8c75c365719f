import { EventTypes, type EventType } from './event-types.js';

/**
 * THE catalogue of Kafka topics: nothing else in the repository spells a topic name.
 *
 * WARNING: a topic name is a contract with every producer, consumer, committed consumer-group offset
 * and (for `feed.*`) external data publisher. Renaming or removing a topic, or changing its partition
 * count (which moves keys to other partitions and breaks per-key ordering), needs a migration: add the
 * new `...v<N+1>` topic, dual-publish, move consumers, then retire the old one. Never edit in place.
 *
 * Names follow `<domain>.<event>.v<N>`.
 */

export type CleanupPolicy = 'delete' | 'compact';

export interface TopicSettings {
  partitions: number;
  retentionMs: number;
  cleanupPolicy: CleanupPolicy;
  description: string;
  /** Event types a record on this topic may carry; empty means any (the dead-letter topic). */
  eventTypes: readonly EventType[];
}

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

export const TOPICS = {
  'feed.precipitation.v1': {
    partitions: 3,
    retentionMs: 7 * DAY,
    cleanupPolicy: 'delete',
    description: 'Raw radar precipitation observations as data publishers send them (public feed contract).',
    eventTypes: [EventTypes.PrecipitationObservation],
  },
  'feed.lightning.v1': {
    partitions: 3,
    retentionMs: 7 * DAY,
    cleanupPolicy: 'delete',
    description: 'Raw lightning strikes as data publishers send them (public feed contract).',
    eventTypes: [EventTypes.LightningStrike],
  },
  'feed.thunderstorm.v1': {
    partitions: 3,
    retentionMs: 7 * DAY,
    cleanupPolicy: 'delete',
    description: 'Raw thunderstorm cells as data publishers send them (public feed contract).',
    eventTypes: [EventTypes.ThunderstormCell],
  },
  'feed.forecast.v1': {
    partitions: 3,
    retentionMs: 7 * DAY,
    cleanupPolicy: 'delete',
    description: 'Raw forecast grids as data publishers send them (public feed contract).',
    eventTypes: [EventTypes.ForecastGrid],
  },
  // Normalised weather: keyed by area and 6 partitions wide, so alarm matching scales out by area.
  'weather.precipitation.v1': {
    partitions: 6,
    retentionMs: 7 * DAY,
    cleanupPolicy: 'delete',
    description: 'Validated, de-duplicated precipitation events, keyed by area.',
    eventTypes: [EventTypes.PrecipitationEvent],
  },
  'weather.lightning.v1': {
    partitions: 6,
    retentionMs: 7 * DAY,
    cleanupPolicy: 'delete',
    description: 'Validated, de-duplicated lightning events, keyed by area.',
    eventTypes: [EventTypes.LightningEvent],
  },
  'weather.thunderstorm.v1': {
    partitions: 6,
    retentionMs: 7 * DAY,
    cleanupPolicy: 'delete',
    description: 'Validated, de-duplicated thunderstorm events, keyed by area.',
    eventTypes: [EventTypes.ThunderstormEvent],
  },
  'weather.forecast.v1': {
    partitions: 6,
    retentionMs: 7 * DAY,
    cleanupPolicy: 'delete',
    description: 'Validated forecast events, keyed by area.',
    eventTypes: [EventTypes.ForecastEvent],
  },
  // One partition: changes to a registration must arrive in order, and volume is tiny. Every matcher
  // reads it with its own group (broadcast); a matcher down longer than retention reloads from its database.
  'alarm.registration-changed.v1': {
    partitions: 1,
    retentionMs: 1 * DAY,
    cleanupPolicy: 'delete',
    description: 'Broadcast of alarm registration changes to every alarm-matcher instance, keyed by registration.',
    eventTypes: [EventTypes.RegistrationChanged],
  },
  'alarm.triggered.v1': {
    partitions: 6,
    retentionMs: 14 * DAY,
    cleanupPolicy: 'delete',
    description: 'An alarm registration matched a weather event; the notifier turns it into webhook deliveries.',
    eventTypes: [EventTypes.AlarmTriggered],
  },
  'alarm.delivery-failed.v1': {
    partitions: 3,
    retentionMs: 14 * DAY,
    cleanupPolicy: 'delete',
    description: 'A webhook delivery exhausted its retries and was marked dead.',
    eventTypes: [EventTypes.DeliveryFailed],
  },
  'identity.user-changed.v1': {
    partitions: 3,
    retentionMs: 7 * DAY,
    cleanupPolicy: 'delete',
    description: 'A user, account or subscription was created, changed or deleted, keyed by user.',
    eventTypes: [EventTypes.UserChanged],
  },
  'notification.message-requested.v1': {
    partitions: 3,
    retentionMs: 3 * DAY,
    cleanupPolicy: 'delete',
    description: 'Request to send an SMS or e-mail (activation codes, password resets, alarm notices).',
    eventTypes: [EventTypes.MessageRequested],
  },
  // Long retention: dead letters are evidence for humans and the source for replays.
  'deadletter.records.v1': {
    partitions: 3,
    retentionMs: 30 * DAY,
    cleanupPolicy: 'delete',
    description:
      'Poison records of every consumer: original key, value and headers kept, reason and source coordinates in deadletter-* headers.',
    eventTypes: [],
  },
} as const satisfies Record<string, TopicSettings>;

export type TopicName = keyof typeof TOPICS;

export interface TopicSpec extends TopicSettings {
  name: TopicName;
}

export const DEAD_LETTER_TOPIC: TopicName = 'deadletter.records.v1';

export function isTopicName(name: string): name is TopicName {
  return Object.hasOwn(TOPICS, name);
}

export function topicSpec(name: TopicName): TopicSpec {
  return { name, ...TOPICS[name] };
}

/** Every catalogue topic, for services that pre-create topics at start. */
export function allTopics(): TopicSpec[] {
  return (Object.keys(TOPICS) as TopicName[]).map(topicSpec);
}
