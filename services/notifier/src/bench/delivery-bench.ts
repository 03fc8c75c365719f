/**
 * Delivery benchmark: AlarmTriggered accepted (stored durably, as the Kafka handler does) -> worker ->
 * a local HTTP receiver. Prints deliveries per second at the receiver, p50/p99 latency from the
 * acceptance call to receipt, the time until every result is recorded, and the machine.
 *
 *   MONGO_URL=mongodb://127.0.0.1:27017 node services/notifier/dist/bench/delivery-bench.js [count] [parallel]
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, totalmem } from 'node:os';
import { randomBytes } from 'node:crypto';
import { createLogger } from '@stormhook/logger';
import { reportBench } from '@stormhook/testing';
import { connectMongo } from '@stormhook/mongo';
import { Registry } from 'prom-client';
import { DeliveryWorker } from '../delivery/delivery-worker.js';
import { EndpointCache } from '../delivery/endpoint-cache.js';
import { EndpointHealth } from '../delivery/endpoint-health.js';
import { GotWebhookSender } from '../http/got-sender.js';
import { DeliveryMetrics } from '../metrics/delivery-metrics.js';
import { ensureNotifierIndexes } from '../persistence/collections.js';
import { MongoDeliveryStore } from '../persistence/mongo-delivery-store.js';
import { MongoEndpointRepository } from '../persistence/mongo-endpoint-repository.js';
import { systemClock } from '../ports/clock.js';
import { CredentialCipher, parseKeyring } from '../security/credential-cipher.js';
import { SsrfPolicy } from '../security/ssrf-policy.js';
import { UrlGuard } from '../security/url-guard.js';
import { AcceptAlarm } from '../usecases/accept-alarm.js';
import { EndpointUseCases } from '../usecases/endpoint-usecases.js';
import { alarmEvent } from '../test-support/harness.js';
import type { NotifierEventPublisher } from '../ports/event-publisher.js';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 1000);
  const parallel = Number(process.argv[3] ?? 64);
  const endpointsCount = 8;
  const mongoUrl = process.env['MONGO_URL'] ?? 'mongodb://127.0.0.1:27017';
  const logger = createLogger({ service: 'notifier-bench', level: 'warn' });
  const mongo = await connectMongo({ url: mongoUrl, dbName: `bench_notifier_${Date.now().toString(36)}`, appName: 'notifier-bench' });
  await ensureNotifierIndexes(mongo.db);

  const received = new Map<string, number>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.set(String(req.headers['webhook-id']), performance.now());
      res.end();
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const cipher = new CredentialCipher(parseKeyring(`bench:${randomBytes(32).toString('base64')}`));
  const repository = new MongoEndpointRepository(mongo.db, cipher);
  const store = new MongoDeliveryStore(mongo.db);
  const policy = new SsrfPolicy(['127.0.0.1/32']);
  const cache = new EndpointCache(repository, 60_000);
  const publisher: NotifierEventPublisher = { deliveryFailed: async () => undefined, messageRequested: async () => undefined };
  const endpoints = new EndpointUseCases({ repository, clock: systemClock, urlGuard: new UrlGuard(policy), cache });
  for (let i = 0; i < endpointsCount; i++) {
    const created = await endpoints.create(`bench-${i}`, { url: `http://127.0.0.1:${port}/hook/${i}`, deliveryPolicy: { timeoutMs: 5_000, maxRetries: 3, retryDelaySeconds: 1 } });
    if (!created.ok) throw new Error(created.error.message);
  }
  const sender = new GotWebhookSender({ policy, maxBodyBytes: 20_000, userAgent: 'Stormhook-Webhooks/bench', maxSocketsPerHost: 256 });
  const worker = new DeliveryWorker(
    { store, endpoints: cache, health: new EndpointHealth({ repository, cache, publisher, clock: systemClock, logger, autoDisableAfterMs: 86_400_000 }), sender, publisher, clock: systemClock, logger, metrics: new DeliveryMetrics(new Registry()) },
    { instanceId: 'bench', concurrency: 512, perEndpointConcurrency: 128 },
  );
  worker.start();
  const accept = new AcceptAlarm({ store, endpoints: cache, clock: systemClock, worker });

  const events = Array.from({ length: count }, (_, i) => alarmEvent(`bench-${i % endpointsCount}`));
  const insertedAt = new Map<string, number>();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < events.length) {
        const event = events[next++];
        if (!event) break;
        insertedAt.set(event.notificationId, performance.now());
        await accept.execute(event);
      }
    }),
  );
  const accepted = performance.now();
  while (received.size < count) await new Promise((r) => setTimeout(r, 5));
  const allReceived = performance.now();
  while ((await mongo.db.collection('delivery_queue').countDocuments()) > 0) await new Promise((r) => setTimeout(r, 100));
  const allRecorded = performance.now();

  const latencies = events.map((e) => (received.get(e.notificationId) ?? NaN) - (insertedAt.get(e.notificationId) ?? NaN)).sort((a, b) => a - b);
  const cpu = cpus();
  console.log(JSON.stringify({
    machine: { cpu: cpu[0]?.model, cores: cpu.length, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, database: mongoUrl.replace(/\/\/[^@]*@/, '//***@') },
    deliveries: count,
    parallelAcceptors: parallel,
    endpoints: endpointsCount,
    acceptedPerSecond: Math.round(count / ((accepted - started) / 1000)),
    deliveredPerSecond: Math.round(count / ((allReceived - started) / 1000)),
    latencyInsertToReceiptMs: { p50: Math.round(percentile(latencies, 50)), p99: Math.round(percentile(latencies, 99)), max: Math.round(latencies[latencies.length - 1] ?? NaN) },
    allResultsRecordedAfterMs: Math.round(allRecorded - started),
  }, null, 2));

  const bench = 'notifier webhook delivery';
  const note = `${count} deliveries over ${endpointsCount} endpoints to a local receiver, database ${mongoUrl.replace(/\/\/[^@]*@/, '//***@')}; the embedded FerretDB's per-update cost bounds it (README)`;
  reportBench({ bench, metric: 'throughput', value: Math.round(count / ((allReceived - started) / 1000)), unit: 'deliveries/s', note });
  reportBench({ bench, metric: 'p50 latency acceptance to receipt', value: Math.round(percentile(latencies, 50)), unit: 'ms', note });
  reportBench({ bench, metric: 'p99 latency acceptance to receipt', value: Math.round(percentile(latencies, 99)), unit: 'ms', note });

  await worker.stop({ graceMs: 1_000 });
  sender.close();
  server.closeAllConnections();
  server.close();
  await mongo.db.dropDatabase();
  await mongo.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
