import type { KafkaMessage, Message } from 'kafkajs';
import { DEAD_LETTER_HEADERS } from './headers.js';

export interface DeadLetterSource {
  /** The broker topic name (prefix included): the coordinates must point at the real record. */
  topic: string;
  partition: number;
  groupId: string;
}

const MAX_REASON_LENGTH = 1_000;

/**
 * The dead-letter copy of a consumed record: original key, value and headers byte for byte (so it can
 * be replayed with its event id and trace context intact), plus why and where it came from.
 */
export function deadLetterMessage(message: KafkaMessage, source: DeadLetterSource, reason: string, now: Date): Message {
  const trimmed = reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH)}...` : reason;
  return {
    key: message.key,
    value: message.value,
    headers: {
      ...message.headers,
      [DEAD_LETTER_HEADERS.reason]: trimmed,
      [DEAD_LETTER_HEADERS.sourceTopic]: source.topic,
      [DEAD_LETTER_HEADERS.sourcePartition]: String(source.partition),
      [DEAD_LETTER_HEADERS.sourceOffset]: message.offset,
      [DEAD_LETTER_HEADERS.consumerGroup]: source.groupId,
      [DEAD_LETTER_HEADERS.failedAt]: now.toISOString(),
    },
  };
}
