import type { EventToPublish, PublishResult, Publisher } from './publisher.js';
import { channelSpec, type ChannelName, type MessageOf } from './topics.js';

/** One message to publish on a channel, before encoding. */
export interface ChannelEvent<N extends ChannelName> {
  /** Partitioning key; null spreads records over partitions. */
  key: string | null;
  message: MessageOf<N>;
  /** Give it when the event already has an id (a re-publish must carry the same one). */
  eventId?: string;
}

/** The publisher's view of channel messages: encoded with the channel's codec and labelled with its event type. */
export function channelEvents<N extends ChannelName>(name: N, events: readonly ChannelEvent<N>[]): EventToPublish[] {
  const { eventType, codec } = channelSpec(name);
  return events.map((e) => ({
    key: e.key,
    value: codec.encode(e.message),
    eventType,
    ...(e.eventId !== undefined ? { eventId: e.eventId } : {}),
  }));
}

/** Publishes messages on a channel: the typed counterpart of {@link Publisher.publish}. */
export async function publishOn<N extends ChannelName>(
  publisher: Pick<Publisher, 'publish'>,
  name: N,
  events: readonly ChannelEvent<N>[],
): Promise<PublishResult> {
  return publisher.publish(name, channelEvents(name, events));
}
