import { Outcomes, type Outcome } from './outcome.js';
import type { Handler } from './record-processor.js';
import type { ConsumedRecord } from './record.js';
import { decodeChannelRecord, type ChannelRecord } from './channel-record.js';
import type { ChannelName } from './topics.js';

/** Handles the decoded records of channel `N`. */
export type ChannelHandler<N extends ChannelName> = (record: ChannelRecord<N>) => Promise<Outcome>;

/** One handler per channel a consumer reads; each receives its channel's records decoded. */
export type ChannelHandlers<N extends ChannelName> = { [K in N]: ChannelHandler<K> };

export interface ChannelHandlerOptions {
  /**
   * What becomes of a record that fails the envelope checks or the decode: a dead letter (default),
   * or skipped, for a reader whose records another group of the same service dead-letters already.
   */
  onMismatch?: 'dead-letter' | 'skip';
  /** Told of each such record, with the reason (counters, logs). */
  onRejected?: (record: ConsumedRecord, reason: string) => void;
}

/** The channels of a handler map, so the topics a consumer reads are written once: as its handlers' keys. */
export function channelsOf<N extends ChannelName>(handlers: ChannelHandlers<N>): N[] {
  return Object.keys(handlers) as N[];
}

/** A record handler that checks and decodes each record for its channel, then hands it to that channel's handler. */
export function channelHandler<N extends ChannelName>(handlers: ChannelHandlers<N>, options: ChannelHandlerOptions = {}): Handler {
  const reject = (record: ConsumedRecord, reason: string): Outcome => {
    options.onRejected?.(record, reason);
    return options.onMismatch === 'skip' ? Outcomes.ok() : Outcomes.deadLetter(reason);
  };
  return async (record) => {
    if (!Object.hasOwn(handlers, record.topic)) return reject(record, `no handler for topic ${record.topic}`);
    const topic = record.topic as N;
    const decoded = decodeChannelRecord(topic, record);
    if (!decoded.ok) return reject(record, decoded.reason);
    const handle = handlers[topic] as ChannelHandler<N>;
    return handle(decoded.record);
  };
}
