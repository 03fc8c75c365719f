import type { KafkaMessage } from 'kafkajs';
import { parseEventHeaders, type EventHeaders } from './headers.js';
import type { TopicName } from './topics.js';

/** One consumed record as a handler sees it. */
export interface ConsumedRecord {
  /** Catalogue name (without any prefix), so handlers can switch on it. */
  topic: TopicName;
  partition: number;
  /** int64 as a decimal string, as Kafka has it. */
  offset: string;
  key: string | null;
  value: Buffer;
  headers: EventHeaders;
  /** The record timestamp (producer create time unless the topic says log-append time). */
  timestamp: Date;
}

export type RecordParseResult = { ok: true; record: ConsumedRecord } | { ok: false; reason: string };

export function toConsumedRecord(topic: TopicName, partition: number, message: KafkaMessage): RecordParseResult {
  if (message.value === null) return { ok: false, reason: 'record has no value' };
  const parsed = parseEventHeaders(message.headers);
  if (!parsed.ok) return parsed;
  const millis = Number(message.timestamp);
  return {
    ok: true,
    record: {
      topic,
      partition,
      offset: message.offset,
      key: message.key === null ? null : message.key.toString('utf8'),
      value: message.value,
      headers: parsed.headers,
      timestamp: new Date(Number.isFinite(millis) ? millis : 0),
    },
  };
}

/** The offset to commit once `offset` is done: Kafka commits the NEXT offset to read. */
export function nextOffset(offset: string): string {
  return (BigInt(offset) + 1n).toString();
}
