import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCallback {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Answer = (callback: ReceivedCallback, res: ServerResponse) => void;

/** Answers 200 with a plain JSON body. */
export const answerOk: Answer = (_callback, res) => {
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
};

/** Answers with the incumbent's acknowledgement (AlarmReceived): the payload's id and SUCCESS. */
export const acknowledgeAlarm: Answer = (callback, res) => {
  let id = '';
  try {
    id = String((JSON.parse(callback.body) as { id?: unknown }).id ?? '');
  } catch {
    // not JSON: acknowledged without an id
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, status: 'SUCCESS', timeEpochMillis: Date.now() }));
};

/** A real HTTP receiver on 127.0.0.1 that records every callback; `answer` decides each reply. */
export class Receiver {
  readonly received: ReceivedCallback[] = [];
  private server: Server | undefined;
  private port = 0;

  constructor(public answer: Answer = answerOk) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const callback = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        this.received.push(callback);
        this.answer(callback, res);
      });
    });
    this.server.keepAliveTimeout = 500;
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** The callbacks carrying `webhook-id: id`. */
  withId(id: string): ReceivedCallback[] {
    return this.received.filter((callback) => callback.headers['webhook-id'] === id);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Polls `probe` until it returns a value (not undefined), or fails after `timeoutMs` naming `what`. */
export async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
