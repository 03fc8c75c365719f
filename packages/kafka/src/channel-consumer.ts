import { channelHandler, channelsOf, type ChannelHandlerOptions, type ChannelHandlers } from './channel-handler.js';
import { createConsumer, type ConsumerOptions, type EventConsumer } from './consumer.js';
import { consumerGroupId } from './consumer-group.js';
import type { ChannelName } from './topics.js';

export interface ChannelConsumerOptions<N extends ChannelName>
  extends Omit<ConsumerOptions, 'groupId' | 'topics' | 'handler' | 'batchHandler' | 'maxBatchRecords'>, ChannelHandlerOptions {
  /** The group's name; the topic prefix goes in front (see {@link consumerGroupId}). */
  group: string;
  /** One handler per channel read: the consumer subscribes to exactly these. */
  handlers: ChannelHandlers<N>;
}

/**
 * A consumer of typed channels: {@link createConsumer} with its delivery rules unchanged (at least
 * once, periodic commits, recordsInFlight, retries, dead letters), whose records are checked against
 * their channel's event type and decoded with its codec before a handler sees them. A record that
 * fails is dead-lettered (or skipped) with the reason, without reaching the handler.
 */
export function createChannelConsumer<N extends ChannelName>(opts: ChannelConsumerOptions<N>): EventConsumer {
  const { group, handlers, onMismatch, onRejected, ...consumer } = opts;
  return createConsumer({
    ...consumer,
    groupId: consumerGroupId(group, opts.prefix),
    topics: channelsOf(handlers),
    handler: channelHandler(handlers, { ...(onMismatch ? { onMismatch } : {}), ...(onRejected ? { onRejected } : {}) }),
  });
}
