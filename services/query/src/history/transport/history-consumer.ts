import {
  createConsumer,
  decodeChannelRecord,
  Outcomes,
  TopicNames,
  type BatchHandler,
  type EventConsumer,
  type Outcome,
  type Publisher,
} from '@stormhook/kafka';
import type { Kafka } from 'kafkajs';
import type { Logger } from '@stormhook/logger';
import type { HistoryKind } from '../domain/kinds.js';
import { storedRecord, type KindMessages, type StoredRecord } from '../domain/record.js';

export interface HistoryCounters {
  stored: number;
  duplicates: number;
  /** Records that fail their channel's checks: the read models' and the matcher's consumers dead-letter them, the history skips them. */
  skipped: number;
}

export function newHistoryCounters(): HistoryCounters {
  return { stored: 0, duplicates: 0, skipped: 0 };
}

/** The store's side the consumer writes to. */
export interface HistoryAppender {
  append(records: readonly StoredRecord[], batchId: string): Promise<{ stored: number; duplicates: number }>;
}

type HistoryTopic =
  typeof TopicNames.WeatherLightning | typeof TopicNames.WeatherThunderstorm | typeof TopicNames.WeatherPrecipitation | typeof TopicNames.WeatherForecast;

/** The channels the history reads, and the kind each one's records are kept as. */
const KIND_OF_TOPIC: Record<HistoryTopic, HistoryKind> = {
  [TopicNames.WeatherLightning]: 'LIGHTNING',
  [TopicNames.WeatherThunderstorm]: 'THUNDERSTORM',
  [TopicNames.WeatherPrecipitation]: 'PRECIPITATION',
  [TopicNames.WeatherForecast]: 'FORECAST',
};
const TOPICS = Object.keys(KIND_OF_TOPIC) as HistoryTopic[];
const isHistoryTopic = (topic: string): topic is HistoryTopic => Object.hasOwn(KIND_OF_TOPIC, topic);

/**
 * The batch handler of the history: a partition's batch of weather records becomes one journal
 * write, and every record is answered only after it (so offsets are committed for durable work
 * only); a database failure answers retry for the whole batch, which the consumer retries, then
 * stops on, visibly.
 */
export function historyBatchHandler(store: HistoryAppender, counters: HistoryCounters, logger: Logger): BatchHandler {
  return async (records) => {
    const outcomes: Outcome[] = [];
    const stored: StoredRecord[] = [];
    for (const record of records) {
      outcomes.push(Outcomes.ok());
      const topic = record.topic;
      const kind = isHistoryTopic(topic) ? KIND_OF_TOPIC[topic] : undefined;
      const decoded = isHistoryTopic(topic) ? decodeChannelRecord(topic, record) : undefined;
      if (!kind || !decoded?.ok) {
        counters.skipped++;
        logger.warn(
          { topic: record.topic, partition: record.partition, offset: record.offset, reason: decoded?.ok === false ? decoded.reason : 'not a weather topic' },
          'record left out of the history',
        );
        continue;
      }
      stored.push(storedRecord(kind, decoded.record.message as KindMessages[typeof kind], record.value, record.timestamp.getTime()));
    }
    const first = records[0];
    if (first && stored.length > 0) {
      const result = await store.append(stored, `${first.topic}:${first.partition}:${first.offset}:${records.length}`);
      counters.stored += result.stored;
      counters.duplicates += result.duplicates;
    }
    return outcomes;
  };
}

/** The consumer of the four weather topics that feeds the history, in a group of its own. */
export function createHistoryConsumer(opts: {
  kafka: Kafka;
  groupId: string;
  publisher: Publisher;
  logger: Logger;
  prefix?: string;
  store: HistoryAppender;
  counters: HistoryCounters;
  partitionsConsumedConcurrently: number;
  onFatal: (error: Error) => void;
  onRecovered: () => void;
}): EventConsumer {
  return createConsumer({
    kafka: opts.kafka,
    groupId: opts.groupId,
    topics: TOPICS,
    batchHandler: historyBatchHandler(opts.store, opts.counters, opts.logger),
    // Strikes come in thousands; a batch is one journal document.
    maxBatchRecords: 2_000,
    publisher: opts.publisher,
    logger: opts.logger,
    ...(opts.prefix ? { prefix: opts.prefix } : {}),
    partitionsConsumedConcurrently: opts.partitionsConsumedConcurrently,
    onFatal: opts.onFatal,
    onRecovered: opts.onRecovered,
  });
}
