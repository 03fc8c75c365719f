import type { Admin, ITopicConfig, Kafka } from 'kafkajs';
import type { Logger } from '@stormhook/logger';
import { errorChain } from './error-chain.js';
import { topicNamer } from './topic-namer.js';
import type { TopicName, TopicSpec } from './topics.js';

export interface TopicOptions {
  /** Isolates tests and parallel stacks; see {@link topicNamer}. */
  prefix?: string;
}

export interface EnsureTopicsOptions extends TopicOptions {
  logger?: Logger;
  /** How long to wait for the broker metadata to show every topic with a leader per partition. */
  timeoutMs?: number;
}

export interface EnsureTopicsResult {
  /** Broker names of the topics this call created. */
  created: string[];
  /** Broker names of the topics that already existed. */
  existing: string[];
}

function topicConfig(name: string, spec: TopicSpec): ITopicConfig {
  return {
    topic: name,
    numPartitions: spec.partitions,
    // -1 lets the broker apply default.replication.factor: 1 on the embedded broker, 3 on a real cluster.
    replicationFactor: -1,
    configEntries: [
      { name: 'retention.ms', value: String(spec.retentionMs) },
      { name: 'cleanup.policy', value: spec.cleanupPolicy },
    ],
  };
}

/** Runs `work` with a connected admin client, disconnecting whatever happens. */
export async function withAdmin<T>(kafka: Kafka, work: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.disconnect();
  }
}

/** True when metadata lists every topic with the expected partitions, each with a leader. */
async function allReady(admin: Admin, wanted: Map<string, TopicSpec>): Promise<boolean> {
  // Listing first: asking metadata for a topic the controller has not propagated yet makes kafkajs log an error.
  const listed = new Set(await admin.listTopics());
  if (![...wanted.keys()].every((name) => listed.has(name))) return false;
  try {
    const { topics } = await admin.fetchTopicMetadata({ topics: [...wanted.keys()] });
    return [...wanted.keys()].every((name) => {
      const meta = topics.find((t) => t.name === name);
      return meta !== undefined && meta.partitions.length > 0 && meta.partitions.every((p) => p.leader >= 0);
    });
  } catch {
    // UNKNOWN_TOPIC_OR_PARTITION or LEADER_NOT_AVAILABLE while the controller propagates: not yet.
    return false;
  }
}

/**
 * Creates the missing topics of `topics` and waits until the broker metadata shows all of them.
 * Services call it at start (KRaft auto-creation is off on purpose: it races and uses wrong settings).
 * Idempotent and safe against a concurrent caller creating the same topics. Existing topics are left
 * as they are: changing partitions or settings is a migration, not a start-up side effect.
 */
export async function ensureTopics(kafka: Kafka, topics: readonly TopicSpec[], opts: EnsureTopicsOptions = {}): Promise<EnsureTopicsResult> {
  const namer = topicNamer(opts.prefix);
  const wanted = new Map(topics.map((spec) => [namer.physical(spec.name), spec]));
  const timeoutMs = opts.timeoutMs ?? 30_000;

  return withAdmin(kafka, async (admin) => {
    const present = new Set(await admin.listTopics());
    const missing = [...wanted.entries()].filter(([name]) => !present.has(name));
    if (missing.length > 0) {
      // false means "already exists" (another instance won the race); both are fine.
      await admin.createTopics({
        topics: missing.map(([name, spec]) => topicConfig(name, spec)),
        waitForLeaders: false,
      });
    }

    // Wait for every topic, not only the created ones: a racing creator's topics may still be settling.
    const deadline = Date.now() + timeoutMs;
    while (!(await allReady(admin, wanted))) {
      if (Date.now() > deadline) {
        throw new Error(`topics not ready after ${timeoutMs} ms: ${[...wanted.keys()].join(', ')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const { topics: meta } = await admin.fetchTopicMetadata({ topics: [...wanted.keys()] });
    for (const [name, spec] of wanted) {
      const partitions = meta.find((t) => t.name === name)?.partitions.length ?? 0;
      if (partitions !== spec.partitions) {
        opts.logger?.warn({ topic: name, partitions, expected: spec.partitions }, 'topic partition count differs from the catalogue');
      }
    }

    const created = missing.map(([name]) => name);
    if (created.length > 0) opts.logger?.info({ topics: created }, 'created kafka topics');
    return { created, existing: [...wanted.keys()].filter((name) => present.has(name)) };
  });
}

/** Deletes catalogue topics under a prefix; for tests and throw-away stacks cleaning up after themselves. */
export async function deleteTopics(kafka: Kafka, names: readonly TopicName[], opts: TopicOptions = {}): Promise<void> {
  const namer = topicNamer(opts.prefix);
  await withAdmin(kafka, async (admin) => {
    const present = new Set(await admin.listTopics());
    const doomed = names.map((name) => namer.physical(name)).filter((name) => present.has(name));
    if (doomed.length === 0) return;
    await admin.deleteTopics({ topics: doomed });
    // Deletion finishes asynchronously on the controller; return once the topics are gone from the listing
    // so a caller can re-create or assert right away.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const left = new Set(await admin.listTopics());
      if (!doomed.some((name) => left.has(name))) return;
      if (Date.now() > deadline) throw new Error(`topics still listed after deletion: ${doomed.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
}

export type KafkaHealth = { ok: true; brokers: number; controller: number | null } | { ok: false; error: string };

/**
 * Readiness probe: can we reach the cluster and does it have a broker? Never throws; a hung
 * connection counts as down after `timeoutMs`.
 */
export async function kafkaHealth(admin: Admin, timeoutMs = 2_000): Promise<KafkaHealth> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<KafkaHealth>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: `no answer from kafka within ${timeoutMs} ms` }), timeoutMs);
  });
  const probe = admin.describeCluster().then(
    (cluster): KafkaHealth =>
      cluster.brokers.length > 0
        ? { ok: true, brokers: cluster.brokers.length, controller: cluster.controller }
        : { ok: false, error: 'cluster reports no brokers' },
    (error: unknown): KafkaHealth => ({ ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Gives a group that has no committed offset on a partition the partition's current end as its
 * committed offset. A consumer that starts "from the end" otherwise resolves the end only on its
 * first fetch, after joining, so a record published between start() returning and that fetch is
 * skipped; pinned first, every record published after this call is read.
 */
export async function pinUncommittedToEnd(kafka: Kafka, groupId: string, topics: readonly string[], timeoutMs = 30_000): Promise<void> {
  // The admin client does not retry coordinator errors itself, and a fresh broker answers
  // NOT_COORDINATOR while it loads its offsets topic: retry what the broker calls retriable.
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await pinOnce(kafka, groupId, topics);
    } catch (error) {
      if (!isRetriable(error) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

function isRetriable(error: unknown): boolean {
  for (const e of errorChain(error)) if ((e as { retriable?: boolean }).retriable === true) return true;
  return false;
}

async function pinOnce(kafka: Kafka, groupId: string, topics: readonly string[]): Promise<void> {
  await withAdmin(kafka, async (admin) => {
    const committed = await admin.fetchOffsets({ groupId, topics: [...topics] });
    for (const { topic, partitions } of committed) {
      const open = new Set(partitions.filter((p) => Number(p.offset) < 0).map((p) => p.partition));
      if (open.size === 0) continue;
      const ends = await admin.fetchTopicOffsets(topic);
      const pinned = ends.filter((end) => open.has(end.partition)).map((end) => ({ partition: end.partition, offset: end.high }));
      await admin.setOffsets({ groupId, topic, partitions: pinned });
    }
  });
}
