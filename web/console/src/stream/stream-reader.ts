import { SseParser } from './sse-parser.js';
import { STREAM_EVENT_NAMES, type StreamEvent, type StreamEventName } from '@stormhook/webhooks/stream-events';

/** What the console does with the stream: every parsed event, and the connection's state for the status line. */
export interface StreamSink {
  onEvent(event: StreamEvent): void;
  onState(state: 'connecting' | 'live' | 'waiting' | 'unavailable', detail?: string): void;
}

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

const KNOWN = new Set<string>(STREAM_EVENT_NAMES);

/** Parses one raw event's JSON under its name; unknown names (the vocabulary grows additively) and bad JSON are skipped. */
export function parseStreamEvent(raw: { event: string; data: string; id?: string }): StreamEvent | undefined {
  if (!KNOWN.has(raw.event)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(raw.data);
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null) return undefined;
  return { event: raw.event as StreamEventName, data, ...(raw.id === undefined ? {} : { id: raw.id }) } as StreamEvent;
}

/**
 * Reads GET /v1/stream with fetch() (EventSource cannot send credentials headers) and reconnects:
 * at once after the server's `end` (its maximum duration, a replica going away), with a growing
 * pause after a failure. A 404 or 501 means the gateway does not serve the stream: the console then
 * keeps the map it loaded and says so instead of retrying forever.
 */
export class StreamReader {
  private abort: AbortController | undefined;
  private stopped = false;
  private failures = 0;
  private injected: SseParser | undefined;

  constructor(
    private readonly path: string,
    private readonly headers: () => Promise<Record<string, string> | undefined>,
    private readonly sink: StreamSink,
    private readonly fetchImpl: Fetch = (input, init) => fetch(input, init),
  ) {}

  start(): void {
    this.stopped = false;
    void this.loop();
  }

  stop(): void {
    this.stopped = true;
    this.abort?.abort();
  }

  /**
   * Stream text that did not come from the network, through the same parser and dispatch: the
   * console's frame-rate bench drives the map with it (test/src/console/console-bench.ts).
   */
  inject(text: string): void {
    this.injected ??= new SseParser((raw) => this.dispatch(raw));
    this.injected.push(text);
  }

  private dispatch(raw: { event: string; data: string; id?: string }): StreamEvent | undefined {
    const event = parseStreamEvent(raw);
    if (!event) return undefined;
    if (event.event === 'ready') this.sink.onState('live');
    this.sink.onEvent(event);
    return event;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const outcome = await this.once();
      if (this.stopped) return;
      if (outcome === 'unavailable') return;
      if (outcome === 'ended') {
        this.failures = 0;
        continue;
      }
      this.failures += 1;
      const pauseMs = Math.min(30_000, 1_000 * 2 ** Math.min(this.failures - 1, 5));
      this.sink.onState('waiting', `reconnecting in ${Math.round(pauseMs / 1000)} s`);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }

  private async once(): Promise<'ended' | 'failed' | 'unavailable'> {
    const headers = await this.headers();
    if (!headers) return 'unavailable';
    this.sink.onState('connecting');
    this.abort = new AbortController();
    let response: Response;
    try {
      response = await this.fetchImpl(this.path, { headers: { Accept: 'text/event-stream', ...headers }, signal: this.abort.signal });
    } catch {
      return 'failed';
    }
    if (response.status === 404 || response.status === 501) {
      this.sink.onState('unavailable', 'no live stream here, the map shows its first load');
      return 'unavailable';
    }
    if (!response.ok || !response.body) {
      this.sink.onState('waiting', `the stream answered ${response.status}`);
      return 'failed';
    }
    let ended = false;
    const parser = new SseParser((raw) => {
      const event = this.dispatch(raw);
      if (event?.event === 'ready') this.failures = 0;
      if (event?.event === 'end') ended = true;
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.push(value);
      }
    } catch {
      return this.stopped || ended ? 'ended' : 'failed';
    }
    return ended ? 'ended' : 'failed';
  }
}
