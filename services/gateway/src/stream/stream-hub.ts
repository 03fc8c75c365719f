import { KEEP_ALIVE_FRAME, sseFrame } from './sse.js';
import type { StreamEndReason } from '@stormhook/webhooks/stream-events';
import { admits, type StreamItem, type StreamSelection } from './stream-selection.js';

/** One client connection as the hub writes to it (an HTTP response in the gateway, a fake in specs). */
export interface StreamSink {
  /** Queues a frame on the connection; false when its buffer is full (wait for `onDrain`). */
  write(frame: string): boolean;
  /** Calls `listener` once, when the connection can take more after a false `write`. */
  onDrain(listener: () => void): void;
  /** Writes `final` and ends the connection (freeing it even if the client never reads it). */
  close(final: string): void;
}

export interface StreamHubOptions {
  /** Events held for one client beyond what its connection buffers; more and it is cut off. */
  bufferLimit: number;
  /**
   * Characters of those events held at most (a rain area's outline can be tens of kilobytes): more and
   * the client is cut off too. Frames are shared by the streams that hold them, so this bounds each
   * stream's share, and all streams together hold at most this much of distinct frames per stream.
   */
  bufferChars: number;
  /** Streams one account may hold open on this replica. */
  perAccountLimit: number;
  /** A keep-alive comment goes to a stream that was sent nothing for this long. */
  keepAliveMs: number;
  /** A stream ends (MAX_DURATION) this long after it opened. */
  maxDurationMs: number;
  now?: () => number;
}

export type OpenResult = { ok: true; stream: OpenStream } | { ok: false; reason: 'ACCOUNT_LIMIT' | 'CLOSED' };

/** A stream as its opener holds it: closed by the client going away. */
export interface OpenStream {
  /** The client went away: forget the stream (nothing more is written). */
  detach(): void;
}

const END_MESSAGES: Readonly<Record<StreamEndReason, string>> = {
  SLOW_CONSUMER: 'the client read too slowly: more events were waiting for it than the stream holds',
  MAX_DURATION: 'the stream reached its longest duration; reconnect to go on',
  SHUTTING_DOWN: 'this gateway replica is shutting down; reconnect to go on',
  ACCESS_CHANGED: "the user's access changed (role, status, key, account or plan); reconnect to stream what it allows now",
};

/** Changes of identity.user-changed.v1 that concern the whole account (its plan), not only the user named. */
const ACCOUNT_WIDE_CHANGES: ReadonlySet<string> = new Set(['ACCOUNT', 'SUBSCRIPTION']);

/** Whose stream it is: the account its quota and cap count against, and the user who opened it. */
export interface StreamOwner {
  account: string;
  userId: string;
}

/** The `end` event of a reason, as a frame. */
export function endFrame(reason: StreamEndReason): string {
  return sseFrame('end', { reason, message: END_MESSAGES[reason] });
}

class Subscriber {
  /** Frames waiting for the connection to drain, oldest first from `head`. */
  private queue: string[] = [];
  private head = 0;
  /** Characters of the frames waiting. */
  private waitingChars = 0;
  private writable = true;
  closed = false;
  lastWriteMs: number;

  constructor(
    readonly account: string,
    readonly userId: string,
    readonly selection: StreamSelection,
    readonly openedMs: number,
    private readonly sink: StreamSink,
    private readonly limits: Pick<StreamHubOptions, 'bufferLimit' | 'bufferChars'>,
    /** Called when the backlog passes a limit: the hub ends the stream. */
    private readonly overflow: () => void,
  ) {
    this.lastWriteMs = openedMs;
  }

  get waiting(): number {
    return this.queue.length - this.head;
  }

  /** Writes at once while the connection takes it; queues while it drains; cuts the client off past the limit. */
  send(frame: string, now: number): void {
    if (this.closed) return;
    this.lastWriteMs = now;
    if (this.writable && this.waiting === 0) {
      this.writable = this.sink.write(frame);
      if (!this.writable) this.sink.onDrain(() => this.flush());
      return;
    }
    if (this.waiting >= this.limits.bufferLimit || this.waitingChars + frame.length > this.limits.bufferChars) {
      this.overflow();
      return;
    }
    this.queue.push(frame);
    this.waitingChars += frame.length;
  }

  private flush(): void {
    if (this.closed) return;
    this.writable = true;
    while (this.writable && this.head < this.queue.length) {
      const frame = this.queue[this.head]!;
      this.writable = this.sink.write(frame);
      this.waitingChars -= frame.length;
      this.head += 1;
    }
    // Compact now and then, not per frame: shifting a long array per write is quadratic.
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head > 1024) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    if (!this.writable) this.sink.onDrain(() => this.flush());
  }

  close(final: string): void {
    if (this.closed) return;
    this.closed = true;
    this.queue = [];
    this.head = 0;
    this.waitingChars = 0;
    this.sink.close(final);
  }

  detach(): void {
    this.closed = true;
    this.queue = [];
    this.head = 0;
    this.waitingChars = 0;
  }
}

/**
 * The fan-out of one gateway replica: one Kafka consumer publishes every weather event here once,
 * and the hub writes its frame (serialised once) to each open stream that may carry it. A stream's
 * own backlog is bounded: a client that falls more than `bufferLimit` events (or `bufferChars`) behind gets an `end`
 * event (SLOW_CONSUMER) and is disconnected, so a slow reader costs bounded memory and never slows
 * the others or the consumer.
 */
export class StreamHub {
  private readonly subscribers = new Set<Subscriber>();
  private readonly perAccount = new Map<string, number>();
  private readonly now: () => number;
  private closing = false;
  /** Streams cut off for reading too slowly since start (a metric for operators and the bench). */
  slowConsumerEnds = 0;

  constructor(private readonly options: StreamHubOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Open streams on this replica. */
  get size(): number {
    return this.subscribers.size;
  }

  /** Open streams of one account on this replica. */
  openFor(account: string): number {
    return this.perAccount.get(account) ?? 0;
  }

  /**
   * Opens a stream for `account` unless it already holds `perAccountLimit` here: `first` (the
   * `ready` event) is written before any weather event.
   */
  open(owner: StreamOwner, selection: StreamSelection, sink: StreamSink, first: string): OpenResult {
    if (this.closing) return { ok: false, reason: 'CLOSED' };
    const { account, userId } = owner;
    const held = this.openFor(account);
    if (held >= this.options.perAccountLimit) return { ok: false, reason: 'ACCOUNT_LIMIT' };
    const subscriber: Subscriber = new Subscriber(account, userId, selection, this.now(), sink, this.options, () => this.end(subscriber, 'SLOW_CONSUMER'));
    this.subscribers.add(subscriber);
    this.perAccount.set(account, held + 1);
    subscriber.send(first, this.now());
    return { ok: true, stream: { detach: () => this.forget(subscriber, () => subscriber.detach()) } };
  }

  /** Sends an event to every open stream that may carry it. */
  publish(item: StreamItem): void {
    const now = this.now();
    for (const subscriber of this.subscribers) {
      if (admits(subscriber.selection, item)) subscriber.send(item.frame, now);
    }
  }

  /** Keep-alives for idle streams and the end of streams past their longest duration; call about every second. */
  tick(): void {
    const now = this.now();
    for (const subscriber of this.subscribers) {
      if (now - subscriber.openedMs >= this.options.maxDurationMs) this.end(subscriber, 'MAX_DURATION');
      else if (now - subscriber.lastWriteMs >= this.options.keepAliveMs) subscriber.send(KEEP_ALIVE_FRAME, now);
    }
  }

  /**
   * What a user may do changed (identity.user-changed.v1): its streams were opened under the old role,
   * plan geography or key, so they end (ACCESS_CHANGED) and the client reconnects under the new. A
   * change of the account or its plan ends every stream of the accounts the user streams for.
   */
  accessChanged(userId: string, change: string): void {
    const accounts = new Set<string>();
    for (const subscriber of this.subscribers) if (subscriber.userId === userId) accounts.add(subscriber.account);
    const accountWide = ACCOUNT_WIDE_CHANGES.has(change);
    for (const subscriber of [...this.subscribers]) {
      if (subscriber.userId === userId || (accountWide && accounts.has(subscriber.account))) this.end(subscriber, 'ACCESS_CHANGED');
    }
  }

  /** Ends every stream (SHUTTING_DOWN) and refuses new ones: the replica is stopping. */
  closeAll(): void {
    this.closing = true;
    for (const subscriber of [...this.subscribers]) this.end(subscriber, 'SHUTTING_DOWN');
  }

  private end(subscriber: Subscriber, reason: StreamEndReason): void {
    if (reason === 'SLOW_CONSUMER') this.slowConsumerEnds += 1;
    this.forget(subscriber, () => subscriber.close(endFrame(reason)));
  }

  private forget(subscriber: Subscriber, then: () => void): void {
    if (this.subscribers.delete(subscriber)) {
      const held = this.openFor(subscriber.account) - 1;
      if (held > 0) this.perAccount.set(subscriber.account, held);
      else this.perAccount.delete(subscriber.account);
    }
    then();
  }
}
