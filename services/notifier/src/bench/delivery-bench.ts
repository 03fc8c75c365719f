/**
 * Delivery benchmark: AlarmTriggered accepted as the Kafka handler accepts it (stored durably, many
 * records in flight) -> worker -> local HTTP receivers, one per endpoint (8 endpoints, 8 ports, the
 * production defaults for slots). Two runs, each on a fresh database:
 *
 *   healthy        every receiver answers 200 at once: deliveries per second at the receivers.
 *   dead endpoint  the same, but one of the 8 receivers never answers (every attempt times out):
 *                  deliveries per second to the 7 others, compared with the healthy run.
 *
 *   MONGO_URL=mongodb://127.0.0.1:27017 node services/notifier/dist/bench/delivery-bench.js [count] [parallel]
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createLogger, type Logger } from '@stormhook/logger';
import { reportBench } from '@stormhook/testing';
import { connectMongo } from '@stormhook/mongo';
import { Registry } from 'prom-client';
import { DEFAULT_WORKER_OPTIONS, DeliveryWorker } from '../delivery/delivery-worker.js';
import { EndpointCache } from '../delivery/endpoint-cache.js';
import { EndpointHealth } from '../delivery/endpoint-health.js';
import { GotWebhookSender } from '../http/got-sender.js';
import { DeliveryMetrics } from '../metrics/delivery-metrics.js';
import { COLLECTIONS, ensureNotifierIndexes } from '../persistence/collections.js';
import { MongoDeliveryStore } from '../persistence/mongo-delivery-store.js';
import { MongoEndpointRepository } from '../persistence/mongo-endpoint-repository.js';
import { systemClock } from '../ports/clock.js';
import type { NotifierEventPublisher } from '../ports/event-publisher.js';
import { CredentialCipher, parseKeyring } from '../security/credential-cipher.js';
import { SsrfPolicy } from '../security/ssrf-policy.js';
import { UrlGuard } from '../security/url-guard.js';
import { AcceptAlarm } from '../usecases/accept-alarm.js';
import { EndpointUseCases } from '../usecases/endpoint-usecases.js';
import { alarmEvent } from '../test-support/harness.js';

const ENDPOINTS = 8;
/** Every endpoint has the default policy: a dead one times out after 5 s and is retried 10 s later. */
const POLICY = { timeoutMs: 5_000, maxRetries: 3, retryDelaySeconds: 10 };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

interface RunResult {
  deliveredPerSecond: number;
  liveDeliveredPerSecond: number;
  acceptedPerSecond: number;
  p50: number;
  p99: number;
  queued: number;
  recordedAfterMs: number;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function run(mongoUrl: string, count: number, parallel: number, deadEndpoint: boolean, logger: Logger): Promise<RunResult> {
  const mongo = await connectMongo({ url: mongoUrl, dbName: `bench_notifier_${Date.now().toString(36)}`, appName: 'notifier-bench' });
  await ensureNotifierIndexes(mongo.db);
  const received = new Map<string, number>();
  const servers: Server[] = [];
  const ports: number[] = [];
  for (let i = 0; i < ENDPOINTS; i++) {
    const dead = deadEndpoint && i === 0;
    const server = createServer((req, res) => {
      req.resume();
      if (dead) return; // never answers: the attempt times out
      req.on('end', () => {
        received.set(String(req.headers['webhook-id']), performance.now());
        res.end();
      });
    });
    server.keepAliveTimeout = 10_000;
    servers.push(server);
    ports.push(await listen(server));
  }

  const cipher = new CredentialCipher(parseKeyring(`bench:${randomBytes(32).toString('base64')}`));
  const repository = new MongoEndpointRepository(mongo.db, cipher);
  const store = new MongoDeliveryStore(mongo.db);
  const policy = new SsrfPolicy(['127.0.0.1/32']);
  const cache = new EndpointCache(repository);
  const publisher: NotifierEventPublisher = { deliveryFailed: async () => undefined, messageRequested: async () => undefined };
  const endpoints = new EndpointUseCases({ repository, clock: systemClock, urlGuard: new UrlGuard(policy), cache });
  for (let i = 0; i < ENDPOINTS; i++) {
    const created = await endpoints.create(`bench-${i}`, { url: `http://127.0.0.1:${ports[i]}/hook`, deliveryPolicy: POLICY });
    if (!created.ok) throw new Error(created.error.message);
  }
  const sender = new GotWebhookSender({ policy, maxBodyBytes: 20_000, userAgent: 'Stormhook-Webhooks/bench', maxSocketsPerHost: DEFAULT_WORKER_OPTIONS.perEndpointConcurrency });
  const health = new EndpointHealth({ repository, cache, publisher, clock: systemClock, logger, autoDisableAfterMs: 86_400_000 });
  const worker = new DeliveryWorker({ store, endpoints: cache, health, sender, publisher, clock: systemClock, logger, metrics: new DeliveryMetrics(new Registry()) }, { instanceId: 'bench' });
  worker.start();
  const accept = new AcceptAlarm({ store, endpoints: cache, clock: systemClock, worker });

  const events = Array.from({ length: count }, (_, i) => alarmEvent(`bench-${i % ENDPOINTS}`));
  // Endpoints 1-7 in both runs: the ones that stay alive beside endpoint 0.
  const live = events.filter((_, i) => i % ENDPOINTS !== 0);
  const answered = deadEndpoint ? live : events;
  const acceptedAt = new Map<string, number>();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < events.length) {
        const event = events[next++];
        if (!event) break;
        acceptedAt.set(event.notificationId, performance.now());
        await accept.execute(event);
      }
    }),
  );
  const accepted = performance.now();
  while (answered.some((e) => !received.has(e.notificationId))) await new Promise((r) => setTimeout(r, 5));
  const lastLive = Math.max(...live.map((e) => received.get(e.notificationId) ?? 0));
  const lastAll = Math.max(...answered.map((e) => received.get(e.notificationId) ?? 0));
  // Every live delivery recorded (the dead endpoint's keep timing out and waiting for retries).
  const attempts = mongo.db.collection(COLLECTIONS.attempts);
  while ((await attempts.estimatedDocumentCount()) < answered.length) await new Promise((r) => setTimeout(r, 50));
  const recorded = performance.now();
  const queued = await mongo.db.collection(COLLECTIONS.leases).estimatedDocumentCount();

  await worker.stop({ graceMs: 0 });
  sender.close();
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  await mongo.db.dropDatabase();
  await mongo.close();
  const latencies = answered.map((e) => (received.get(e.notificationId) ?? NaN) - (acceptedAt.get(e.notificationId) ?? NaN)).sort((a, b) => a - b);
  return {
    deliveredPerSecond: Math.round(answered.length / ((lastAll - started) / 1000)),
    liveDeliveredPerSecond: Math.round(live.length / ((lastLive - started) / 1000)),
    acceptedPerSecond: Math.round(count / ((accepted - started) / 1000)),
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    queued,
    recordedAfterMs: Math.round(recorded - started),
  };
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 8000);
  const parallel = Number(process.argv[3] ?? 256);
  const mongoUrl = process.env['MONGO_URL'] ?? 'mongodb://127.0.0.1:27017';
  const logger = createLogger({ service: 'notifier-bench', level: 'error' });
  const healthy = await run(mongoUrl, count, parallel, false, logger);
  console.log(`healthy: ${JSON.stringify(healthy)}`);
  const dead = await run(mongoUrl, count, parallel, true, logger);
  console.log(`dead endpoint: ${JSON.stringify(dead)}`);
  // The same 7 endpoints' share of the healthy run, against their rate beside a dead endpoint.
  const loss = Math.round((1 - dead.liveDeliveredPerSecond / healthy.liveDeliveredPerSecond) * 1000) / 10;
  const database = mongoUrl.replace(/\/\/[^@]*@/, '//***@');
  console.log(JSON.stringify({ deliveries: count, parallelAcceptors: parallel, endpoints: ENDPOINTS, policy: POLICY, database, healthy, deadEndpoint: { ...dead, othersThroughputLossPercent: loss } }, null, 2));

  const bench = 'notifier webhook delivery';
  const note = `${count} deliveries over ${ENDPOINTS} local receivers, ${parallel} acceptances in flight, default slots (${DEFAULT_WORKER_OPTIONS.concurrency}, ${DEFAULT_WORKER_OPTIONS.perEndpointConcurrency} per endpoint)`;
  reportBench({ bench, metric: 'throughput', value: healthy.deliveredPerSecond, unit: 'deliveries/s', note });
  reportBench({ bench, metric: 'p50 latency acceptance to receipt', value: healthy.p50, unit: 'ms', note });
  reportBench({ bench, metric: 'p99 latency acceptance to receipt', value: healthy.p99, unit: 'ms', note });
  const deadNote = `${note}; 1 of the 8 never answers (${POLICY.timeoutMs} ms timeouts, retried)`;
  reportBench({ bench, metric: 'throughput of the 7 live endpoints beside a dead one', value: dead.liveDeliveredPerSecond, unit: 'deliveries/s', note: deadNote });
  reportBench({ bench, metric: 'throughput lost by the live endpoints to the dead one', value: loss, unit: '%', note: deadNote });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
