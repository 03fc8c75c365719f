import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The webhook receiver of the fault scenarios: records every call by webhook-id, and fails the first
 * `failFirst` attempts of each notification with a 500 so deliveries go through retries.
 */
export class FaultReceiver {
  /** webhook-id -> bodies of the calls acknowledged with 2xx. */
  readonly delivered = new Map<string, string[]>();
  readonly attempts = new Map<string, number>();
  failFirst = 0;
  /** Called with each acknowledged body and when it arrived (a benchmark times deliveries). */
  onDelivered: ((body: string, atMs: number) => void) | undefined;
  private server: Server | undefined;
  private port = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const id = String(req.headers['webhook-id'] ?? '');
        const attempt = (this.attempts.get(id) ?? 0) + 1;
        this.attempts.set(id, attempt);
        if (attempt <= this.failFirst) {
          res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"injected failure"}');
          return;
        }
        this.delivered.set(id, [...(this.delivered.get(id) ?? []), body]);
        this.onDelivered?.(body, Date.now());
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, status: 'SUCCESS', timeEpochMillis: Date.now() }));
      });
    });
    this.server.keepAliveTimeout = 500;
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Event ids named by acknowledged calls, with how many times each arrived. */
  eventCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const bodies of this.delivered.values()) {
      for (const body of bodies) {
        const eventId = String((JSON.parse(body) as { eventId?: unknown }).eventId ?? '');
        counts.set(eventId, (counts.get(eventId) ?? 0) + 1);
      }
    }
    return counts;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
