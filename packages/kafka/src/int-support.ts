/** Helpers for this package's integration tests only (not exported). */
import type { Kafka, KafkaMessage } from 'kafkajs';
import { withAdmin } from './admin.js';
import { testInfra, uniqueName } from '@stormhook/testing';
import { createLogger, type Logger } from '@stormhook/logger';
import { createKafkaClient } from './client.js';

export { uniqueName };

export function testBrokers(): string[] {
  return testInfra().kafkaBrokers;
}

export function testLogger(): Logger {
  return createLogger({ service: 'kafka-int', level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
}

export function testKafka(logger: Logger = testLogger()): Kafka {
  return createKafkaClient({ brokers: testBrokers(), credentials: testInfra().kafkaCredentials, clientId: uniqueName('kafka-int'), logger });
}

/** Polls until `condition` holds; fails with `what` so a timeout says what never happened. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export { withAdmin };

/** Committed offset per partition of `topic` for `groupId` ('-1' where nothing is committed). */
export async function committedOffsets(kafka: Kafka, groupId: string, topic: string): Promise<Map<number, string>> {
  return withAdmin(kafka, async (admin) => {
    const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return new Map((entry?.partitions ?? []).map((p) => [p.partition, p.offset]));
  });
}

/** High watermark per partition of `topic`. */
export async function endOffsets(kafka: Kafka, topic: string): Promise<Map<number, string>> {
  return withAdmin(kafka, async (admin) => new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, p.high])));
}

export async function deleteGroups(kafka: Kafka, groupIds: readonly string[]): Promise<void> {
  if (groupIds.length === 0) return;
  await withAdmin(kafka, (admin) => admin.deleteGroups([...groupIds])).catch(() => {
    // a group that never committed may not exist; nothing to clean then
  });
}

/** Reads the first `count` records of a topic with a plain kafkajs consumer (dead letters are not events to handle). */
export async function readAll(kafka: Kafka, topic: string, count: number): Promise<KafkaMessage[]> {
  const groupId = uniqueName('kafka-dlq-reader');
  const reader = kafka.consumer({ groupId, maxWaitTimeInMs: 200 });
  const messages: KafkaMessage[] = [];
  await reader.connect();
  try {
    await reader.subscribe({ topics: [topic], fromBeginning: true });
    await reader.run({
      eachMessage: async ({ message }) => {
        messages.push(message);
      },
    });
    await waitFor(() => messages.length >= count, `${count} records on ${topic}`);
  } finally {
    await reader.disconnect();
    await withAdmin(kafka, (admin) => admin.deleteGroups([groupId])).catch(() => undefined);
  }
  return messages.sort((a, b) => Number(BigInt(a.offset) - BigInt(b.offset)));
}
