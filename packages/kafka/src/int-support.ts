/**
 * Helpers for this package's integration tests only (not exported). They mirror `testInfra()` and
 * `uniqueName()` of @stormhook/testing, which is not a dependency of this package yet.
 */
import { randomBytes } from 'node:crypto';
import type { Admin, Kafka } from 'kafkajs';
import { createLogger, type Logger } from '@stormhook/logger';
import { createKafkaClient } from './client.js';

export function testBrokers(env: NodeJS.ProcessEnv = process.env): string[] {
  const brokers = env['KAFKA_BROKERS'];
  if (!brokers) throw new Error('integration tests need KAFKA_BROKERS; run them through `npm test`, which starts the embedded stack');
  return brokers.split(',').map((b) => b.trim()).filter(Boolean);
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

export function testLogger(): Logger {
  return createLogger({ service: 'kafka-int', level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
}

export function testKafka(logger: Logger = testLogger()): Kafka {
  return createKafkaClient({ brokers: testBrokers(), clientId: uniqueName('kafka-int'), logger });
}

/** Polls until `condition` holds; fails with `what` so a timeout says what never happened. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function withAdmin<T>(kafka: Kafka, work: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.disconnect();
  }
}

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
