import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One acknowledged call, as much of it as the tallies need. */
export interface Arrival {
  /** The `webhook-id` header: the notification id, the same on every attempt of one delivery. */
  webhookId: string;
  atMs: number;
}

/** What a webhook body says about the strike and the registration it is for (lightning START payloads). */
interface LightningBody {
  eventId?: unknown;
  strikeId?: unknown;
  registrationId?: unknown;
  stage?: unknown;
}

/** The key of a lightning delivery: one strike (by the feed's source id) at one registration. */
export const pairKey = (strikeId: string, registrationId: string): string => `${strikeId}|${registrationId}`;

/**
 * The webhook receiver of the fault scenarios: records every call by webhook-id, and fails the first
 * `failFirst` attempts of each notification with a 500 so deliveries go through retries. Counts are
 * kept as calls arrive (a storm scenario receives thousands and polls the counts while it waits).
 */
export class FaultReceiver {
  /** webhook-id -> how many calls were acknowledged with 2xx. */
  readonly delivered = new Map<string, number>();
  /** webhook-id -> calls received (failed ones included). */
  readonly attempts = new Map<string, number>();
  /** Stormhook event id -> acknowledged calls naming it. */
  private readonly byEvent = new Map<string, number>();
  /** pairKey(strikeId, registrationId) -> every acknowledged call for it. */
  private readonly byPair = new Map<string, Arrival[]>();
  failFirst = 0;
  /** Calls answered 500 on purpose. */
  failed = 0;
  /** Called with each acknowledged body and when it arrived (a benchmark times deliveries). */
  onDelivered: ((body: string, atMs: number) => void) | undefined;
  private server: Server | undefined;
  private port = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const atMs = Date.now();
        const body = Buffer.concat(chunks).toString('utf8');
        const webhookId = String(req.headers['webhook-id'] ?? '');
        const attempt = (this.attempts.get(webhookId) ?? 0) + 1;
        this.attempts.set(webhookId, attempt);
        if (attempt <= this.failFirst) {
          this.failed++;
          res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"injected failure"}');
          return;
        }
        this.delivered.set(webhookId, (this.delivered.get(webhookId) ?? 0) + 1);
        this.count(webhookId, body, atMs);
        this.onDelivered?.(body, atMs);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: webhookId, status: 'SUCCESS', timeEpochMillis: atMs }));
      });
    });
    this.server.keepAliveTimeout = 500;
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  private count(webhookId: string, body: string, atMs: number): void {
    let parsed: LightningBody;
    try {
      parsed = JSON.parse(body) as LightningBody;
    } catch {
      return; // not a JSON alarm body: counted by webhook-id only
    }
    const eventId = String(parsed.eventId ?? '');
    this.byEvent.set(eventId, (this.byEvent.get(eventId) ?? 0) + 1);
    if (typeof parsed.strikeId === 'string' && typeof parsed.registrationId === 'string') {
      const key = pairKey(parsed.strikeId, parsed.registrationId);
      const list = this.byPair.get(key);
      if (list) list.push({ webhookId, atMs });
      else this.byPair.set(key, [{ webhookId, atMs }]);
    }
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Event ids named by acknowledged calls, with how many times each arrived. */
  eventCounts(): ReadonlyMap<string, number> {
    return this.byEvent;
  }

  /** The acknowledged calls for one strike at one registration (empty when none arrived). */
  arrivals(strikeId: string, registrationId: string): readonly Arrival[] {
    return this.byPair.get(pairKey(strikeId, registrationId)) ?? [];
  }

  /** Acknowledged calls in all. */
  get acknowledged(): number {
    let n = 0;
    for (const count of this.delivered.values()) n += count;
    return n;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
