import { PROTOBUF_CONTENT_TYPE } from './headers.js';
import type { ConsumedRecord } from './record.js';
import { channelSpec, type ChannelName, type MessageOf } from './topics.js';

/** A consumed record of channel `N` with its value decoded; `value` keeps the bytes for handlers that store them as they came. */
export interface ChannelRecord<N extends ChannelName> extends ConsumedRecord {
  topic: N;
  message: MessageOf<N>;
}

export type ChannelDecodeResult<N extends ChannelName> = { ok: true; record: ChannelRecord<N> } | { ok: false; reason: string };

/** The catalogue's codecs read version 1 of each message; a later version needs a reader that knows it. */
export const SUPPORTED_SCHEMA_VERSION = 1;

/**
 * The envelope checks and the decode of one record of a channel. A record that fails them cannot be
 * interpreted safely, so it is poison (never a retry): its event type is not the channel's, it is
 * not protobuf, it is of a schema version this reader does not know, or its bytes are not the message.
 */
export function decodeChannelRecord<N extends ChannelName>(name: N, record: ConsumedRecord): ChannelDecodeResult<N> {
  const { eventType, codec } = channelSpec(name);
  const { headers } = record;
  if (headers.eventType !== eventType) {
    return { ok: false, reason: `header event-type is "${headers.eventType}", but ${name} carries ${eventType}` };
  }
  if (headers.contentType !== PROTOBUF_CONTENT_TYPE) {
    return { ok: false, reason: `header content-type is "${headers.contentType}", but ${name} carries ${PROTOBUF_CONTENT_TYPE}` };
  }
  if (headers.schemaVersion !== SUPPORTED_SCHEMA_VERSION) {
    return { ok: false, reason: `header schema-version is ${headers.schemaVersion}; this consumer reads version ${SUPPORTED_SCHEMA_VERSION}` };
  }
  let message: MessageOf<N>;
  try {
    message = codec.decode(record.value);
  } catch (error) {
    return { ok: false, reason: `value is not a valid ${eventType}: ${(error as Error).message}` };
  }
  return { ok: true, record: { ...record, topic: name, message } };
}
