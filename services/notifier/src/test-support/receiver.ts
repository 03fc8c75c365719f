import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver does with one request; the default answers 200 with an empty body. */
export type Responder = (request: ReceivedRequest, res: ServerResponse, n: number) => void | Promise<void>;

/** A real HTTP receiver on 127.0.0.1, port 0, recording every request per path. */
export class TestReceiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly responders = new Map<string, Responder>();
  private readonly counts = new Map<string, number>();
  private readonly waiters: { predicate: () => boolean; resolve: () => void }[] = [];
  private server: Server | undefined;
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const request: ReceivedRequest = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        this.requests.push(request);
        const path = request.url.split('?')[0] ?? '';
        const n = (this.counts.get(path) ?? 0) + 1;
        this.counts.set(path, n);
        const responder = this.responders.get(path);
        void Promise.resolve(responder ? responder(request, res, n) : res.end()).catch(() => res.destroy());
        for (const w of [...this.waiters])
          if (w.predicate()) {
            this.waiters.splice(this.waiters.indexOf(w), 1);
            w.resolve();
          }
      });
    });
    // Keep-alive sockets of the sender must not keep close() waiting.
    this.server.keepAliveTimeout = 1_000;
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  on(path: string, responder: Responder): void {
    this.responders.set(path, responder);
  }

  at(path: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.url.split('?')[0] === path);
  }

  /** Resolves once `count` requests reached `path`, or rejects after `timeoutMs`. */
  waitFor(path: string, count: number, timeoutMs = 10_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const predicate = (): boolean => this.at(path).length >= count;
      if (predicate()) return resolve();
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${count} requests on ${path}; got ${this.at(path).length}`)), timeoutMs);
      this.waiters.push({
        predicate,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
