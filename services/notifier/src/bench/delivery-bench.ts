/**
 * Delivery benchmark: AlarmTriggered accepted as the Kafka handler accepts it (stored durably, many
 * records in flight) -> worker -> local HTTP receivers, one per endpoint (8 endpoints, 8 ports, the
 * production defaults for slots). The receivers run in a process of their own (bench-receivers.ts),
 * as customers' receivers do. Two runs, each on a fresh database:
 *
 *   healthy        every receiver answers 200 at once: deliveries per second at the receivers.
 *   dead endpoint  the same, but one of the 8 receivers never answers (every attempt times out):
 *                  deliveries per second to the 7 others, compared with the healthy run.
 *
 * Beside the deliveries, the healthy run measures what bounds them, in the same run:
 *   receivers' ceiling  the 7 receivers that stay alive, driven by a bare node:http client right
 *                       after each run (keep-alive, the same sockets per receiver and requests in
 *                       flight, no database, no signing): the most they take from one process now.
 *                       The notifier's rate is given as a ratio of it.
 *   sender alone        the notifier's own HttpSender driving the same receivers the same way right
 *                       after (no database, no signing): its CPU per request beside the bare
 *                       client's is what the HTTP client adds to every delivery.
 *   dead endpoint's work  the notifier's CPU per live delivery in the dead-endpoint run against its
 *                       CPU per delivery in the healthy run: what the dead endpoint adds to the
 *                       others' cost. The notifier is CPU-bound here, so this is what it takes from
 *                       their throughput, and it depends far less than the two runs' rates on what
 *                       other work a shared machine does meanwhile.
 *   database work       every command the notifier sends (driver command monitoring), as commands
 *                       and documents written per delivery.
 *   CPU                 of the notifier's process (acceptance, sending, recording) per delivery.
 *
 *   MONGO_URL=mongodb://127.0.0.1:27017 node services/notifier/dist/bench/delivery-bench.js [count] [parallel]
 *   (BENCH_RUNS=healthy: the healthy run only; BENCH_CPU_PROFILE=<file>: a CPU profile of its deliveries)
 */
import { Agent, request as httpRequest } from 'node:http';
import { MongoClient } from 'mongodb';
import { randomBytes } from 'node:crypto';
import { createLogger, type Logger } from '@stormhook/logger';
import { reportBench } from '@stormhook/testing';
import { Registry } from 'prom-client';
import { DeliveryWorker } from '../delivery/delivery-worker.js';
import { EndpointCache } from '../delivery/endpoint-cache.js';
import { EndpointHealth } from '../delivery/endpoint-health.js';
import { DEFAULT_STATS_WRITES, WebhookStatsRecorder } from '../delivery/webhook-stats-recorder.js';
import { DEFAULT_WORKER_OPTIONS } from '../delivery/worker-options.js';
import { NodeWebhookSender } from '../http/node-sender.js';
import type { HttpSender } from '../ports/http-sender.js';
import { DeliveryMetrics } from '../metrics/delivery-metrics.js';
import { COLLECTIONS, ensureNotifierIndexes } from '../persistence/collections.js';
import { MongoDeliveryStore } from '../persistence/mongo-delivery-store.js';
import { MongoEndpointRepository } from '../persistence/mongo-endpoint-repository.js';
import { MongoWebhookStatsStore } from '../persistence/mongo-webhook-stats-store.js';
import { WriteGate } from '../persistence/write-gate.js';
import { systemClock } from '../ports/clock.js';
import type { NotifierEventPublisher } from '../ports/event-publisher.js';
import { CredentialCipher, parseKeyring } from '../security/credential-cipher.js';
import { SsrfPolicy } from '../security/ssrf-policy.js';
import { UrlGuard } from '../security/url-guard.js';
import { AcceptAlarm } from '../usecases/accept-alarm.js';
import { EndpointUseCases } from '../usecases/endpoint-usecases.js';
import { alarmEvent } from '../test-support/harness.js';
import { startCpuProfile } from './cpu-profile.js';
import { epochMs } from './bench-receivers.js';
import { Receivers } from './receivers-process.js';

const ENDPOINTS = 8;
/** BENCH_NO_STATS=1 leaves the webhook health statistics out, to see what they cost beside the same run. */
const NO_STATS = process.env['BENCH_NO_STATS'] === '1';
/** BENCH_CPU_PROFILE=<file> writes a CPU profile of the healthy run's deliveries (acceptance to the last one recorded). */
const CPU_PROFILE = process.env['BENCH_CPU_PROFILE'];
/** BENCH_RUNS=healthy leaves the dead-endpoint run out (for profiles and quick comparisons). */
const HEALTHY_ONLY = process.env['BENCH_RUNS'] === 'healthy';
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
  /** CPU of the notifier's process (user + system) per answered delivery, microseconds; receivers apart. */
  cpuUsPerDelivery: number;
  /** Of which in the kernel (system time: socket writes and reads to the receivers and the database). */
  cpuSystemUsPerDelivery: number;
  /** Database commands and documents written per answered delivery, by command. */
  database: DatabaseWork;
  /** The bare client's rate against the live receivers, right after the run. */
  ceiling: Ceiling;
  /** The notifier's sender alone against the same receivers, right after the bare client. */
  senderAlone: Ceiling;
}

interface DatabaseWork {
  commandsPerDelivery: number;
  documentsWrittenPerDelivery: number;
  byCommand: Record<string, { commands: number; documents: number }>;
}

interface Ceiling {
  requestsPerSecond: number;
  cpuUsPerRequest: number;
}

/** Counts the commands the driver sends and the documents they write (insert/update/delete statements). */
function watchCommands(client: MongoClient): () => Record<string, { commands: number; documents: number }> {
  const counts: Record<string, { commands: number; documents: number }> = {};
  client.on('commandStarted', (event) => {
    const command = event.command as { documents?: unknown[]; updates?: unknown[]; deletes?: unknown[] };
    const written = command.documents?.length ?? command.updates?.length ?? command.deletes?.length ?? 0;
    const command_ = event.command as Record<string, unknown>;
    const collection = String(event.commandName === 'getMore' ? command_['collection'] : (command_[event.commandName] ?? ''));
    const key = `${event.commandName} ${collection}`.trim();
    const entry = (counts[key] ??= { commands: 0, documents: 0 });
    entry.commands++;
    entry.documents += written;
  });
  return () => counts;
}

function perDelivery(counts: Record<string, { commands: number; documents: number }>, deliveries: number): DatabaseWork {
  const round = (n: number): number => Math.round((n / deliveries) * 1000) / 1000;
  const byCommand = Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, { commands: round(v.commands), documents: round(v.documents) }]));
  const total = Object.values(counts);
  return {
    commandsPerDelivery: round(total.reduce((n, c) => n + c.commands, 0)),
    documentsWrittenPerDelivery: round(total.reduce((n, c) => n + c.documents, 0)),
    byCommand,
  };
}

/**
 * The receivers' own ceiling: `count` POSTs of a delivery's size spread over them by a bare
 * node:http client with keep-alive, `perHost` sockets per receiver and `parallel` requests in flight.
 */
async function receiversCeiling(ports: readonly number[], count: number, parallel: number, perHost: number, body: string): Promise<Ceiling> {
  const agent = new Agent({ keepAlive: true, maxSockets: perHost, maxFreeSockets: perHost });
  const send = (port: number, id: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/hook',
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'webhook-id': id },
        },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let i = next++; i < count; i = next++) await send(ports[i % ports.length] as number, `ceiling-${i}`);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  agent.destroy();
  return { requestsPerSecond: Math.round(count / seconds), cpuUsPerRequest: Math.round((used.user + used.system) / count) };
}

/** The notifier's sender driving the receivers as receiversCeiling does: what the HTTP client costs per request. */
async function senderAlone(sender: HttpSender, ports: readonly number[], count: number, parallel: number, body: string): Promise<Ceiling> {
  let next = 0;
  let failed = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let i = next++; i < count; i = next++) {
        const outcome = await sender.send({
          method: 'POST',
          url: `http://127.0.0.1:${ports[i % ports.length]}/hook`,
          headers: { 'content-type': 'application/json', 'webhook-id': `sender-${i}` },
          body,
          timeoutMs: POLICY.timeoutMs,
        });
        if (outcome.kind !== 'response' || outcome.statusCode >= 300) failed++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  if (failed > 0) throw new Error(`the sender alone had ${failed} of ${count} requests fail`);
  return { requestsPerSecond: Math.round(count / seconds), cpuUsPerRequest: Math.round((used.user + used.system) / count) };
}

async function run(mongoUrl: string, count: number, parallel: number, deadEndpoint: boolean, logger: Logger): Promise<RunResult> {
  // Its own client, with command monitoring on (it must be set before the connections open).
  const client = await new MongoClient(mongoUrl, { appName: 'notifier-bench', monitorCommands: true }).connect();
  const mongo = { db: client.db(`bench_notifier_${Date.now().toString(36)}`), close: () => client.close() };
  await ensureNotifierIndexes(mongo.db);
  const commands = watchCommands(client);
  const { receivers, ports } = await Receivers.start(ENDPOINTS, deadEndpoint ? 0 : -1);

  const cipher = new CredentialCipher(parseKeyring(`bench:${randomBytes(32).toString('base64')}`));
  const repository = new MongoEndpointRepository(mongo.db, cipher);
  // One write gate for every writer of the database, as the service wires it.
  const gate = new WriteGate();
  const store = new MongoDeliveryStore(mongo.db, { gate });
  const policy = new SsrfPolicy(['127.0.0.1/32']);
  const cache = new EndpointCache(repository);
  const publisher: NotifierEventPublisher = { deliveryFailed: async () => undefined, messageRequested: async () => undefined };
  const endpoints = new EndpointUseCases({ repository, clock: systemClock, urlGuard: new UrlGuard(policy), cache });
  for (let i = 0; i < ENDPOINTS; i++) {
    const created = await endpoints.create(`bench-${i}`, { url: `http://127.0.0.1:${ports[i]}/hook`, deliveryPolicy: POLICY });
    if (!created.ok) throw new Error(created.error.message);
  }
  const sender = new NodeWebhookSender({
    policy,
    maxBodyBytes: 20_000,
    userAgent: 'Stormhook-Webhooks/bench',
    maxSocketsPerHost: DEFAULT_WORKER_OPTIONS.perEndpointConcurrency,
  });
  const health = new EndpointHealth({ repository, cache, publisher, clock: systemClock, logger, autoDisableAfterMs: 86_400_000 });
  // The webhook health statistics as the service wires them: counted per attempt, written every 5 s.
  const stats = new WebhookStatsRecorder(
    { store: new MongoWebhookStatsStore(mongo.db, { gate }), clock: systemClock, logger },
    { writerId: 'bench', ...DEFAULT_STATS_WRITES },
  );
  const worker = new DeliveryWorker(
    {
      store,
      endpoints: cache,
      health,
      sender,
      publisher,
      clock: systemClock,
      logger,
      metrics: new DeliveryMetrics(new Registry()),
      ...(NO_STATS ? {} : { stats }),
    },
    { instanceId: 'bench' },
  );
  worker.start();
  stats.start();
  const accept = new AcceptAlarm({ store, endpoints: cache, clock: systemClock, intake: worker, holdLeaseMs: worker.leaseMs, ...(NO_STATS ? {} : { stats }) });

  const events = Array.from({ length: count }, (_, i) => alarmEvent(`bench-${i % ENDPOINTS}`));
  // Endpoints 1-7 in both runs: the ones that stay alive beside endpoint 0.
  const live = events.filter((_, i) => i % ENDPOINTS !== 0);
  const answered = deadEndpoint ? live : events;
  const acceptedAt = new Map<string, number>();
  const started = epochMs();
  let next = 0;
  const stopProfile = CPU_PROFILE && !deadEndpoint ? await startCpuProfile() : undefined;
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < events.length) {
        const event = events[next++];
        if (!event) break;
        acceptedAt.set(event.notificationId, epochMs());
        await accept.execute(event);
      }
    }),
  );
  const accepted = epochMs();
  while ((await receivers.count()) < answered.length) await new Promise((r) => setTimeout(r, 20));
  const received = await receivers.dump();
  const lastLive = Math.max(...live.map((e) => received.get(e.notificationId) ?? 0));
  const lastAll = Math.max(...answered.map((e) => received.get(e.notificationId) ?? 0));
  // Every live delivery recorded (the dead endpoint's keep timing out and waiting for retries).
  const attempts = mongo.db.collection(COLLECTIONS.attempts);
  while ((await attempts.estimatedDocumentCount()) < answered.length) await new Promise((r) => setTimeout(r, 50));
  const recorded = epochMs();
  const used = process.cpuUsage(cpu);
  if (stopProfile && CPU_PROFILE) await stopProfile(CPU_PROFILE);
  const database = perDelivery(commands(), answered.length);
  const queued = await mongo.db.collection(COLLECTIONS.leases).estimatedDocumentCount();

  await worker.stop({ graceMs: 0 });
  await stats.stop();
  const ceiling = await receiversCeiling(
    ports.slice(1),
    Math.ceil(count / 2),
    parallel,
    DEFAULT_WORKER_OPTIONS.perEndpointConcurrency,
    events[0]?.payloadJson ?? '{}',
  );
  const alone = await senderAlone(sender, ports.slice(1), Math.ceil(count / 2), parallel, events[0]?.payloadJson ?? '{}');
  sender.close();
  await receivers.close();
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
    cpuUsPerDelivery: Math.round((used.user + used.system) / answered.length),
    cpuSystemUsPerDelivery: Math.round(used.system / answered.length),
    database,
    ceiling,
    senderAlone: alone,
  };
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 8000);
  const parallel = Number(process.argv[3] ?? 256);
  const mongoUrl = process.env['MONGO_URL'] ?? 'mongodb://127.0.0.1:27017';
  const logger = createLogger({ service: 'notifier-bench', level: 'error' });
  const healthy = await run(mongoUrl, count, parallel, false, logger);
  console.log(`healthy: ${JSON.stringify(healthy)}`);
  if (HEALTHY_ONLY) return;
  const dead = await run(mongoUrl, count, parallel, true, logger);
  console.log(`dead endpoint: ${JSON.stringify(dead)}`);
  // The same 7 endpoints' share of the healthy run, against their rate beside a dead endpoint.
  const loss = Math.round((1 - dead.liveDeliveredPerSecond / healthy.liveDeliveredPerSecond) * 1000) / 10;
  const addedWork = Math.round((dead.cpuUsPerDelivery / healthy.cpuUsPerDelivery - 1) * 1000) / 10;
  const database = mongoUrl.replace(/\/\/[^@]*@/, '//***@');
  console.log(
    JSON.stringify(
      {
        deliveries: count,
        parallelAcceptors: parallel,
        endpoints: ENDPOINTS,
        policy: POLICY,
        database,
        healthy,
        deadEndpoint: { ...dead, othersThroughputLossPercent: loss, cpuAddedPerLiveDeliveryPercent: addedWork },
      },
      null,
      2,
    ),
  );

  const bench = 'notifier webhook delivery';
  const note = `${count} deliveries over ${ENDPOINTS} local receivers, ${parallel} acceptances in flight, default slots (${DEFAULT_WORKER_OPTIONS.concurrency}, ${DEFAULT_WORKER_OPTIONS.perEndpointConcurrency} per endpoint)`;
  reportBench({ bench, metric: 'throughput', value: healthy.deliveredPerSecond, unit: 'deliveries/s', note });
  reportBench({ bench, metric: 'p50 latency acceptance to receipt', value: healthy.p50, unit: 'ms', note });
  reportBench({ bench, metric: 'p99 latency acceptance to receipt', value: healthy.p99, unit: 'ms', note });
  const ceiling = healthy.ceiling;
  const ceilingNote = `the 7 receivers that stay alive beside the dead one, a bare node:http client, keep-alive, ${DEFAULT_WORKER_OPTIONS.perEndpointConcurrency} sockets per receiver, ${parallel} requests in flight, the same receivers in their own process, ${ceiling.cpuUsPerRequest} us CPU/request in the client`;
  reportBench({ bench, metric: "receivers' ceiling", value: ceiling.requestsPerSecond, unit: 'requests/s', note: ceilingNote });
  reportBench({
    bench,
    metric: "throughput ratio to the receivers' ceiling",
    value: Math.round((healthy.deliveredPerSecond / ceiling.requestsPerSecond) * 1000) / 1000,
    unit: 'ratio',
    note: `${healthy.cpuUsPerDelivery} us CPU per delivery in the notifier's process (acceptance, sending, recording; receivers apart)`,
  });
  const alone = healthy.senderAlone;
  reportBench({
    bench,
    metric: "the notifier's HTTP sender alone, CPU per request",
    value: alone.cpuUsPerRequest,
    unit: 'us',
    note: `NodeWebhookSender driving the same 7 receivers right after the bare client, ${parallel} in flight, no database or signing: ${alone.requestsPerSecond} requests/s; the bare node:http client ${ceiling.cpuUsPerRequest} us (${Math.round((alone.cpuUsPerRequest / ceiling.cpuUsPerRequest) * 100) / 100}x)`,
  });
  const writes = Object.entries(healthy.database.byCommand)
    .map(([name, c]) => `${name} ${c.commands}/${c.documents}`)
    .join(', ');
  reportBench({
    bench,
    metric: 'database commands per delivery',
    value: healthy.database.commandsPerDelivery,
    unit: 'commands',
    note: `healthy run, driver command monitoring; per delivery, commands/documents: ${writes}`,
  });
  reportBench({
    bench,
    metric: 'database documents written per delivery',
    value: healthy.database.documentsWrittenPerDelivery,
    unit: 'documents',
    note: 'healthy run: inserted, updated and deleted documents',
  });
  const deadNote = `${note}; 1 of the 8 never answers (${POLICY.timeoutMs} ms timeouts, retried)`;
  reportBench({
    bench,
    metric: 'throughput of the 7 live endpoints beside a dead one',
    value: dead.liveDeliveredPerSecond,
    unit: 'deliveries/s',
    note: deadNote,
  });
  reportBench({ bench, metric: 'throughput lost by the live endpoints to the dead one', value: loss, unit: '%', note: deadNote });
  reportBench({
    bench,
    metric: 'notifier CPU per live delivery added by the dead endpoint',
    value: addedWork,
    unit: '%',
    note: `${deadNote}; ${dead.cpuUsPerDelivery} us per live delivery beside it, ${healthy.cpuUsPerDelivery} us per delivery in the healthy run`,
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
