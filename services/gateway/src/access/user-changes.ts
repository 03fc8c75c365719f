import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import {
  createChannelConsumer,
  deleteReplicaGroups,
  Outcomes,
  replicaGroup,
  TopicNames,
  type ChannelHandler,
  type EventConsumer,
  type Publisher,
} from '@stormhook/kafka';
import type { Logger } from '@stormhook/logger';

/** What a user change invalidates in this gateway. */
export interface AccessInvalidation {
  evictUser(userId: string): void;
  evictApiKey(keyId: string): void;
  /** A key was created: an attempt with it moments earlier may sit in the unknown-key cache. */
  forgetUnknownKeys(): void;
  /** What the user may do changed (`change` as identity names it): long-lived answers decided earlier must end. */
  accessChanged(userId: string, change: string): void;
}

/**
 * Applies identity.user-changed.v1: the user's snapshot is dropped (the next request reads the new
 * state) and a revoked key leaves the key cache. The event carries no state of its own, so applying
 * an old or repeated one is harmless: it only costs one more read.
 */
export function userChangeHandler(target: AccessInvalidation): ChannelHandler<typeof TopicNames.UserChanged> {
  return async (record) => {
    const change = record.message;
    if (!change.userId) return Outcomes.deadLetter('UserChanged without userId');
    target.evictUser(change.userId);
    if (change.change === 'API_KEY_REVOKED' && change.apiKeyId) target.evictApiKey(change.apiKeyId);
    if (change.change === 'API_KEY_CREATED') target.forgetUnknownKeys();
    else target.accessChanged(change.userId, change.change);
    return Outcomes.ok();
  };
}

export interface UserChangeConsumerOptions {
  kafka: Kafka;
  publisher: Publisher;
  logger: Logger;
  prefix?: string;
  target: AccessInvalidation;
  /** Called when the consumer is down or up again (health, and a full eviction on the way back). */
  onAlive(alive: boolean): void;
}

/**
 * Every gateway replica must see every change (a broadcast, not a work queue), so each reads with a
 * group of its own, from the end of the topic: what it holds was read from identity after it joined.
 * The group is deleted at stop so throw-away groups do not pile up on the broker.
 */
export function userChangeConsumer(options: UserChangeConsumerOptions): { consumer: EventConsumer; stop(): Promise<void> } {
  const consumer = createChannelConsumer({
    kafka: options.kafka,
    group: replicaGroup('gateway', 'user-changes', randomUUID()),
    handlers: { [TopicNames.UserChanged]: userChangeHandler(options.target) },
    publisher: options.publisher,
    logger: options.logger,
    ...(options.prefix ? { prefix: options.prefix } : {}),
    fromBeginning: false,
    // Changes must arrive within the documented bound: fetch often (the topic is tiny).
    tuning: { maxWaitTimeInMs: 100 },
    onFatal: (error) => {
      options.logger.error({ err: error }, 'user-change consumer down: access snapshots are refreshed only by their expiry until it rejoins');
      options.onAlive(false);
    },
    onRecovered: () => options.onAlive(true),
  });
  return {
    consumer,
    async stop() {
      await consumer.stop();
      await deleteReplicaGroups(options.kafka, [consumer.groupId], options.logger);
    },
  };
}
