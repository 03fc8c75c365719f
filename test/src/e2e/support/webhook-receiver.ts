import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One callback as the receiver got it. */
export interface ReceivedCall {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The exact body bytes as text: signatures are computed over them. */
  body: string;
  receivedAtMs: number;
  /** What the receiver answered. */
  answeredStatus: number;
}

/**
 * A customer's webhook endpoint on 127.0.0.1 (allowed by NOTIFIER_SSRF_ALLOW_CIDRS in the e2e stack).
 * Records every request, answers with the incumbent acknowledgement, and can be told to fail the
 * next N requests so retries become visible.
 */
export class WebhookReceiver {
  readonly calls: ReceivedCall[] = [];
  private failures: Array<number> = [];
  private holds: Array<(call: ReceivedCall) => Promise<void>> = [];
  private waiters: Array<() => void> = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(path = '/hooks/stormhook'): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => void receiver?.answer(req.method ?? '', req.url ?? '', req.headers, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${port}${path}`);
    return receiver;
  }

  /** The next `count` requests get `status` (a 503 is retried by the notifier). */
  failNext(count: number, status = 503): void {
    for (let i = 0; i < count; i++) this.failures.push(status);
  }

  /**
   * The next request is answered only once `action` (given that request) has finished: what the
   * sender does while an attempt is still in flight becomes reproducible.
   */
  holdNext(action: (call: ReceivedCall) => Promise<void>): void {
    this.holds.push(action);
  }

  private async answer(method: string, url: string, headers: IncomingHttpHeaders, body: string, res: ServerResponse): Promise<void> {
    const failure = this.failures.shift();
    const status = failure ?? 200;
    const call: ReceivedCall = { method, url, headers, body, receivedAtMs: Date.now(), answeredStatus: status };
    this.calls.push(call);
    const hold = this.holds.shift();
    if (hold) await hold(call).catch(() => undefined);
    if (failure !== undefined) {
      res.writeHead(status, { 'content-type': 'text/plain' }).end('try again later');
    } else {
      let id: unknown;
      try {
        id = (JSON.parse(body) as { id?: unknown }).id;
      } catch {
        id = undefined;
      }
      // The incumbent's acknowledgement: the notifier checks the echoed id.
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, status: 'SUCCESS', timeEpochMillis: Date.now() }));
    }
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves with the first value `probe` finds in the calls so far, waiting for new calls up to `timeoutMs`. */
  async waitFor<T>(probe: (calls: readonly ReceivedCall[]) => T | undefined, what: string, timeoutMs: number): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = probe(this.calls);
      if (found !== undefined) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}; received ${this.calls.length} call(s)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1_000));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
