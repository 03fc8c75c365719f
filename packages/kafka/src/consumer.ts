import type { EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import type { Logger } from '@stormhook/logger';
import { pinUncommittedToEnd } from './admin.js';
import { deadLetterMessage } from './dead-letter.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './outcome.js';
import type { Publisher } from './publisher.js';
import { processChunk, type BatchHandler } from './batch-processor.js';
import { runKeyWindow } from './key-window.js';
import { DEFAULT_COMMIT_POLICY, OffsetCommits, type CommitPolicy, type CommitSender } from './offset-commits.js';
import { processMessage, type Handler, type RecordCoordinates } from './record-processor.js';
import { topicNamer } from './topic-namer.js';
import { DEAD_LETTER_TOPIC, type TopicName } from './topics.js';

/**
 * Group timings. A record must finish well inside sessionTimeout (long work is queued elsewhere);
 * short values make a dead member and a rebalance cost seconds, which also keeps tests fast on the
 * single-node broker. maxWaitTimeInMs bounds how long stop() waits for an idle fetch to return.
 */
export interface ConsumerTuning {
  sessionTimeout: number;
  rebalanceTimeout: number;
  heartbeatInterval: number;
  maxWaitTimeInMs: number;
}

export const DEFAULT_CONSUMER_TUNING: ConsumerTuning = {
  sessionTimeout: 10_000,
  rebalanceTimeout: 15_000,
  heartbeatInterval: 1_000,
  maxWaitTimeInMs: 500,
};

export interface ConsumerOptions {
  kafka: Kafka;
  groupId: string;
  topics: readonly TopicName[];
  /** Handles one record at a time (see recordsInFlight). Give this or batchHandler. */
  handler?: Handler;
  /**
   * Handles the records of one partition together, in offset order, up to maxBatchRecords at a time,
   * answering one outcome per record (see BatchHandler). Give this or handler. recordsInFlight does
   * not apply: the batch is the unit of work, and the next batch of a partition waits for it.
   */
  batchHandler?: BatchHandler;
  /** Records per batchHandler call at most (default 500). */
  maxBatchRecords?: number;
  /** Writes dead letters; its topic prefix must equal this consumer's. */
  publisher: Publisher;
  logger: Logger;
  /** Topic prefix; see {@link topicNamer}. Defaults to none and must match the publisher's. */
  prefix?: string;
  /** Handler runs per record before a transient failure stops the consumer (default 5). */
  maxAttempts?: number;
  /** Backoff between attempts. */
  backoff?: { initialDelayMs?: number; maxDelayMs?: number };
  /**
   * Where a group with no committed offset starts. Default true: a new service must not miss events
   * published before its first start. Broadcast readers with throw-away groups pass false.
   */
  fromBeginning?: boolean;
  /** Partitions handled in parallel (ordering stays per partition). Default 1. */
  partitionsConsumedConcurrently?: number;
  /**
   * Records of one partition handled at once when their keys differ; records sharing a key keep
   * their order (see key-window.ts). Default 1: strictly one after another. Only for
   * handlers that need no order across keys.
   */
  recordsInFlight?: number;
  tuning?: Partial<ConsumerTuning>;
  /** Called each time the consumer stops on a failure it cannot get past (it is then down). */
  onFatal?: (error: Error) => void;
  /**
   * After such a failure (a database or broker outage outlasting the retries), the consumer stays
   * down this long, then joins again from the last committed offset, so the failed record is read
   * again and nothing is lost, without restarting the service. 0: stay down (the old behaviour,
   * for tests). Default 15 s.
   */
  restartAfterMs?: number;
  /** Called when the consumer is consuming again after `onFatal`. */
  onRecovered?: () => void;
  /**
   * How often finished work is committed per partition (default 1 s or 1,000 records, whichever
   * first); also on revoke, stop and before a restart. A crash re-delivers at most about that much.
   */
  commit?: Partial<CommitPolicy>;
  /** Called after each group join with the partitions this member now owns (caches keyed by partition). */
  onAssignment?: (assignment: Partial<Record<TopicName, number[]>>) => void;
}

export type ConsumerExit = { kind: 'stopped' } | { kind: 'fatal'; error: Error };

export interface EventConsumer {
  readonly groupId: string;
  /** Connects, subscribes and joins the group; resolves once the first assignment is in. */
  start(): Promise<void>;
  /** Finishes the records in flight, commits the finished prefix, leaves the group and disconnects. Idempotent. */
  stop(): Promise<void>;
  /** Resolves (never rejects) when the consumer has ended, saying why. */
  readonly done: Promise<ConsumerExit>;
  /** Partitions this member owns now, by catalogue topic name. */
  assignment(): Partial<Record<TopicName, number[]>>;
}

export function createConsumer(opts: ConsumerOptions): EventConsumer {
  const namer = topicNamer(opts.prefix);
  if (namer.prefix !== opts.publisher.topics.prefix) {
    throw new Error(`consumer prefix "${namer.prefix}" differs from its publisher's "${opts.publisher.topics.prefix}": dead letters would go astray`);
  }
  const { groupId } = opts;
  const physicalTopics = opts.topics.map((t) => namer.physical(t));
  const tuning: ConsumerTuning = { ...DEFAULT_CONSUMER_TUNING, ...opts.tuning };
  const policy: RetryPolicy = {
    maxAttempts: opts.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts,
    initialDelayMs: opts.backoff?.initialDelayMs ?? DEFAULT_RETRY_POLICY.initialDelayMs,
    maxDelayMs: opts.backoff?.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
  };
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) throw new Error('maxAttempts must be a positive integer');
  const logger = opts.logger.child({ component: 'kafka-consumer', groupId });

  const restartAfterMs = opts.restartAfterMs ?? 15_000;
  const recordsInFlight = opts.recordsInFlight ?? 1;
  if (!Number.isInteger(recordsInFlight) || recordsInFlight < 1) throw new Error('recordsInFlight must be a positive integer');
  if ((opts.handler === undefined) === (opts.batchHandler === undefined)) throw new Error('give exactly one of handler and batchHandler');
  const maxBatchRecords = opts.maxBatchRecords ?? 500;
  if (!Number.isInteger(maxBatchRecords) || maxBatchRecords < 1) throw new Error('maxBatchRecords must be a positive integer');
  let consumer = opts.kafka.consumer({ groupId, ...tuning, allowAutoTopicCreation: false });
  let restartTimer: NodeJS.Timeout | undefined;
  const commitPolicy: CommitPolicy = { ...DEFAULT_COMMIT_POLICY, ...opts.commit };
  const commits = new OffsetCommits(commitPolicy);
  /**
   * The group's own commit call, as kafkajs hands it to each batch. Outside a batch (idle partitions,
   * a rebalance, stop) the last one is used: unlike consumer.commitOffsets it neither retries for
   * seconds (holding up the commits queued behind) nor skips silently once the client is stopping.
   */
  let groupCommit: EachBatchPayload['commitOffsetsIfNecessary'] | undefined;
  const sendVia =
    (commit: EachBatchPayload['commitOffsetsIfNecessary']): CommitSender =>
    async (offsets) => {
      const byTopic = new Map<string, Array<{ partition: number; offset: string }>>();
      for (const o of offsets) byTopic.set(o.topic, [...(byTopic.get(o.topic) ?? []), { partition: o.partition, offset: o.offset }]);
      await commit({ topics: [...byTopic].map(([topic, partitions]) => ({ topic, partitions })) });
    };
  const sendOutsideBatch: CommitSender = async (offsets) => {
    // No batch yet means nothing finished yet.
    if (groupCommit === undefined) throw new Error('no batch handled yet');
    await sendVia(groupCommit)(offsets);
  };
  const commitQuietly = async (send: CommitSender, what: 'due' | 'all', why: string): Promise<void> => {
    try {
      await (what === 'all' ? commits.commitAll(send) : commits.commitDue(send));
    } catch (error) {
      // Not committed means read again: duplicates at worst, never loss.
      logger.warn({ err: error, why }, 'offset commit failed; the records stay uncommitted');
    }
  };
  // Finished records of a partition that went quiet are committed within about everyMs.
  let commitTimer: NodeJS.Timeout | undefined;
  const startCommitTimer = (): void => {
    commitTimer ??= setInterval(() => {
      if (shutdown === undefined && fatal === undefined && commits.isDue()) void commitQuietly(sendOutsideBatch, 'due', 'interval');
    }, commitPolicy.everyMs);
    commitTimer.unref();
  };
  const stopCommitTimer = (): void => {
    if (commitTimer) clearInterval(commitTimer);
    commitTimer = undefined;
  };

  const stopping = new AbortController();
  let started = false;
  let fatal: Error | undefined;
  let shutdown: Promise<void> | undefined;
  let owned: Partial<Record<TopicName, number[]>> = {};
  let resolveDone: (exit: ConsumerExit) => void = () => {};
  const done = new Promise<ConsumerExit>((resolve) => {
    resolveDone = resolve;
  });

  const end = (exit: ConsumerExit): Promise<void> => {
    shutdown ??= (async () => {
      stopping.abort();
      if (restartTimer) clearTimeout(restartTimer);
      stopCommitTimer();
      // Idle partitions now, while the client still runs; the batch in flight commits its own at its end.
      await commitQuietly(sendOutsideBatch, 'all', 'stop');
      try {
        // kafkajs waits for the batch in flight, then the member leaves the group (no session-timeout wait for the others).
        await consumer.disconnect();
      } catch (error) {
        logger.error({ err: error }, 'error while disconnecting consumer');
      }
      owned = {};
      commits.clear();
      logger.info({ exit: exit.kind, commitRequests: commits.requests }, 'consumer stopped');
      resolveDone(exit);
    })();
    return shutdown;
  };

  const failFatal = (error: Error): void => {
    if (fatal !== undefined || shutdown !== undefined) return;
    fatal = error;
    logger.error({ err: error, topics: physicalTopics }, 'consumer stopping on a failure it cannot get past');
    try {
      // Stop fetching at once; offsets of the failed record stay uncommitted so it is read again later.
      consumer.pause(physicalTopics.map((topic) => ({ topic })));
    } catch {
      // not running yet or already stopped: nothing to pause
    }
    // Disconnect outside the batch handler: kafkajs waits for that handler to return first.
    if (restartAfterMs > 0) setImmediate(() => void restartLater());
    else setImmediate(() => void end({ kind: 'fatal', error }));
    try {
      opts.onFatal?.(error);
    } catch (callbackError) {
      logger.error({ err: callbackError }, 'onFatal callback threw');
    }
  };

  /** Leaves the group, waits, and joins again with a fresh client from the last committed offsets. */
  const restartLater = async (): Promise<void> => {
    stopCommitTimer();
    // What finished before the failure is committed, so the rejoin re-reads only from the failed record.
    await commitQuietly(sendOutsideBatch, 'all', 'restart');
    try {
      await consumer.disconnect();
    } catch (error) {
      logger.error({ err: error }, 'error while disconnecting consumer');
    }
    owned = {};
    commits.clear();
    groupCommit = undefined;
    if (shutdown !== undefined) return;
    logger.warn({ restartAfterMs }, 'consumer down; it joins again from the last committed offset after a pause');
    restartTimer = setTimeout(() => {
      if (shutdown !== undefined) return;
      fatal = undefined;
      consumer = opts.kafka.consumer({ groupId, ...tuning, allowAutoTopicCreation: false });
      listen(consumer);
      run().then(
        () => {
          logger.info('consumer recovered');
          opts.onRecovered?.();
        },
        (error: unknown) => failFatal(error as Error),
      );
    }, restartAfterMs);
    restartTimer.unref();
  };

  const listen = (current: typeof consumer): void => {
    current.on(current.events.GROUP_JOIN, ({ payload }) => {
      const next: Partial<Record<TopicName, number[]>> = {};
      for (const [physical, partitions] of Object.entries(payload.memberAssignment)) {
        const topic = namer.logical(physical);
        if (topic !== undefined) next[topic] = [...partitions].sort((a, b) => a - b);
      }
      owned = next;
      const mine = new Set(Object.entries(payload.memberAssignment).flatMap(([t, ps]) => ps.map((p) => `${t}\u0000${p}`)));
      commits.retain((t, p) => mine.has(`${t}\u0000${p}`));
      logger.info({ assignment: next, memberId: payload.memberId }, 'joined consumer group');
      try {
        opts.onAssignment?.(structuredClone(next));
      } catch (callbackError) {
        logger.error({ err: callbackError }, 'onAssignment callback threw');
      }
    });
    // kafkajs found the group rebalancing while fetching and is about to rejoin: commit what is
    // finished first. The request goes out on the coordinator connection ahead of the join, and the
    // broker still takes commits of the current generation while the group prepares to rebalance.
    current.on(current.events.REBALANCING, () => {
      void commitQuietly(sendOutsideBatch, 'all', 'rebalance');
    });
    current.on(current.events.CRASH, ({ payload }) => {
      if (payload.restart) logger.warn({ err: payload.error }, 'consumer crashed; kafkajs restarts it');
      else failFatal(payload.error);
    });
  };
  listen(consumer);

  const deadLetter = async (message: KafkaMessage, at: RecordCoordinates, reason: string): Promise<void> => {
    const dead = deadLetterMessage(message, { topic: at.physicalTopic, partition: at.partition, groupId }, reason, new Date());
    await opts.publisher.forward(DEAD_LETTER_TOPIC, [{ key: dead.key ?? null, value: dead.value, headers: dead.headers }]);
  };

  const eachBatch = async (payload: EachBatchPayload): Promise<void> => {
    const { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale } = payload;
    const topic = namer.logical(batch.topic);
    if (topic === undefined) throw new Error(`received a batch of unexpected topic ${batch.topic}`);
    const at: RecordCoordinates = { topic, physicalTopic: batch.topic, partition: batch.partition };
    const common = { groupId, policy, logger, signal: stopping.signal, heartbeatIntervalMs: tuning.heartbeatInterval, deadLetter };
    const stop = () => fatal !== undefined || stopping.signal.aborted || !isRunning() || isStale();
    groupCommit = commitOffsetsIfNecessary;
    const sendInBatch = sendVia(commitOffsetsIfNecessary);
    const finished = async (offset: string): Promise<void> => {
      // Only once the handler's work (or the dead letter) is done: at-least-once, never at-most-once.
      resolveOffset(offset);
      commits.finished(batch.topic, batch.partition, offset);
      if (commits.isDue()) await commitQuietly(sendInBatch, 'due', 'batch');
    };
    const beat = async (): Promise<void> => {
      try {
        await heartbeat();
      } catch (error) {
        // A rebalance took effect: hand over the finished prefix before kafkajs rejoins.
        await commitQuietly(sendInBatch, 'all', 'revoke');
        throw error;
      }
    };

    try {
      if (opts.batchHandler !== undefined) {
        const deps = { ...common, handler: opts.batchHandler };
        for (let from = 0; from < batch.messages.length; from += maxBatchRecords) {
          if (stop()) return;
          const chunk = batch.messages.slice(from, from + maxBatchRecords);
          const result = await processChunk(deps, at, chunk, beat);
          if (result.finished > 0) await finished(chunk[result.finished - 1]!.offset);
          if (result.kind === 'abandoned') return;
          if (result.kind === 'fatal') {
            failFatal(result.error);
            return;
          }
          await beat();
        }
        return;
      }
      const deps = { ...common, handler: opts.handler! };
      if (recordsInFlight > 1) {
        const exit = await runKeyWindow(batch.messages, {
          limit: recordsInFlight,
          process: (message) => processMessage(deps, at, message, beat),
          commit: finished,
          shouldStop: stop,
          canCommit: () => isRunning() && !isStale(),
          heartbeat: beat,
          heartbeatEveryMs: tuning.heartbeatInterval,
          commitEvery: 1,
        });
        if (exit.kind === 'fatal') failFatal(exit.error);
        return;
      }

      for (const message of batch.messages) {
        if (stop()) return;
        const result = await processMessage(deps, at, message, beat);
        if (result.kind === 'abandoned') return;
        if (result.kind === 'fatal') {
          failFatal(result.error);
          return;
        }
        await finished(message.offset);
        await beat();
      }
    } finally {
      // Stopping or giving up: the finished prefix goes now, not at the next interval that never comes.
      if (stopping.signal.aborted || fatal !== undefined || !isRunning()) await commitQuietly(sendInBatch, 'all', 'batch end while stopping');
    }
  };

  const run = async (): Promise<void> => {
    // Dead letters must be writable before the first record arrives.
    await opts.publisher.connect();
    await consumer.connect();
    if (opts.fromBeginning === false) await pinUncommittedToEnd(opts.kafka, groupId, physicalTopics);
    await consumer.subscribe({ topics: physicalTopics, fromBeginning: opts.fromBeginning ?? true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: opts.partitionsConsumedConcurrently ?? 1,
      eachBatch,
    });
    startCommitTimer();
  };

  return {
    groupId,
    done,
    assignment: () => structuredClone(owned),

    async start() {
      if (started || shutdown !== undefined) throw new Error(`consumer ${groupId} already started or stopped`);
      started = true;
      try {
        await run();
      } catch (error) {
        await end({ kind: 'fatal', error: error as Error });
        throw error;
      }
      logger.info({ topics: physicalTopics }, 'consumer started');
    },

    async stop() {
      await end({ kind: 'stopped' });
    },
  };
}
