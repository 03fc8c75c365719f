import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import type { AreaIndex } from '@stormhook/access';
import {
  deleteReplicaGroups,
  replicaGroup,
  channelHandler,
  consumerGroupId,
  createConsumer,
  Outcomes,
  TopicNames,
  type ChannelHandlers,
  type EventConsumer,
  type Handler,
  type Publisher,
} from '@stormhook/kafka';
import type { Logger } from '@stormhook/logger';
import { lightningItem, precipitationItem, thunderstormItem } from './stream-items.js';
import type { StreamItem } from './stream-selection.js';

/** The weather topics the stream carries. */
export const STREAM_TOPICS = [TopicNames.WeatherLightning, TopicNames.WeatherThunderstorm, TopicNames.WeatherPrecipitation] as const;
type StreamTopic = (typeof STREAM_TOPICS)[number];

/** Where the feed hands its items (the hub) and whether anyone listens. */
export interface StreamTarget {
  readonly size: number;
  publish(item: StreamItem): void;
}

/**
 * The handlers of the three topics: each event is tagged and serialised once and handed to the hub.
 * An event without a position is skipped: ingest validated it, so that is not poison worth a dead
 * letter here.
 */
export function weatherFeedHandlers(target: StreamTarget, areas: () => AreaIndex | undefined): ChannelHandlers<StreamTopic> {
  const hand = (item: StreamItem | undefined) => {
    if (item) target.publish(item);
    return Outcomes.ok();
  };
  return {
    [TopicNames.WeatherLightning]: async (record) => hand(lightningItem(record.message, areas())),
    [TopicNames.WeatherThunderstorm]: async (record) => hand(thunderstormItem(record.message, areas())),
    [TopicNames.WeatherPrecipitation]: async (record) => hand(precipitationItem(record.message, areas())),
  };
}

/**
 * The record handler: with no stream open on this replica a record is passed over before it is even
 * decoded; otherwise it is checked and decoded for its channel (records that fail are skipped, not
 * dead-lettered: query and the alarm-matcher dead-letter them already) and handed on.
 */
export function weatherFeedHandler(target: StreamTarget, areas: () => AreaIndex | undefined): Handler {
  const decodeAndHand = channelHandler(weatherFeedHandlers(target, areas), { onMismatch: 'skip' });
  return async (record) => (target.size === 0 ? Outcomes.ok() : decodeAndHand(record));
}

export interface WeatherFeedOptions {
  kafka: Kafka;
  publisher: Publisher;
  logger: Logger;
  prefix?: string;
  target: StreamTarget;
  areas: () => AreaIndex | undefined;
}

/**
 * One consumer per gateway replica, not per stream: every replica must see every event (its streams
 * may want any of them), so each reads with a group of its own from the end of the topics (a stream
 * is live: what happened before it opened is the lists' business).
 */
export function weatherFeed(options: WeatherFeedOptions): { consumer: EventConsumer; stop(): Promise<void> } {
  const consumer = createConsumer({
    kafka: options.kafka,
    groupId: consumerGroupId(replicaGroup('gateway', 'weather-stream', randomUUID()), options.prefix),
    topics: STREAM_TOPICS,
    handler: weatherFeedHandler(options.target, options.areas),
    publisher: options.publisher,
    logger: options.logger,
    ...(options.prefix ? { prefix: options.prefix } : {}),
    fromBeginning: false,
    // A live map: fetch often rather than wait for a fuller batch.
    tuning: { maxWaitTimeInMs: 100 },
    // The three topics' partitions side by side: a burst of strikes does not hold back a storm.
    partitionsConsumedConcurrently: 3,
    onFatal: (error) => options.logger.error({ err: error }, 'weather stream consumer down: open streams receive nothing until it rejoins'),
    onRecovered: () => options.logger.info('weather stream consumer consuming again'),
  });
  return {
    consumer,
    async stop() {
      await consumer.stop();
      await deleteReplicaGroups(options.kafka, [consumer.groupId], options.logger);
    },
  };
}
