import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@stormhook/logger';
import { connectMongo, type MongoHandle } from '@stormhook/mongo';
import { alarmV1 } from '@stormhook/proto';
import { testInfra, uniqueName } from '@stormhook/testing';
import { Registry } from 'prom-client';
import { DEFAULT_POLICY_BOUNDS, type DeliveryPolicyBounds } from '../domain/delivery-policy.js';
import type { EndpointConfigInput } from '../domain/endpoint-input.js';
import { newId } from '../domain/ids.js';
import { DeliveryWorker } from '../delivery/delivery-worker.js';
import { EndpointCache } from '../delivery/endpoint-cache.js';
import { EndpointHealth } from '../delivery/endpoint-health.js';
import type { DeliveryWorkerOptions } from '../delivery/worker-options.js';
import { NodeWebhookSender } from '../http/node-sender.js';
import { DeliveryMetrics } from '../metrics/delivery-metrics.js';
import { ensureNotifierIndexes } from '../persistence/collections.js';
import { MongoDeliveryStore } from '../persistence/mongo-delivery-store.js';
import { MongoEndpointRepository } from '../persistence/mongo-endpoint-repository.js';
import { systemClock } from '../ports/clock.js';
import { CredentialCipher, parseKeyring } from '../security/credential-cipher.js';
import { SsrfPolicy } from '../security/ssrf-policy.js';
import { UrlGuard } from '../security/url-guard.js';
import { AcceptAlarm } from '../usecases/accept-alarm.js';
import { DeliveryLog } from '../usecases/delivery-log.js';
import { EndpointUseCases } from '../usecases/endpoint-usecases.js';
import { RecordingPublisher } from './recording-publisher.js';
import type { WebhookStatsSink } from '../ports/webhook-stats-sink.js';
import type { Delivery } from '../domain/delivery.js';
import { until } from './until.js';

/** Small delays are allowed in tests so that retries take a second, not minutes. */
export const TEST_POLICY_BOUNDS: DeliveryPolicyBounds = { ...DEFAULT_POLICY_BOUNDS, timeoutMs: { min: 50, max: 30_000 } };

export interface NotifierHarness {
  mongo: MongoHandle;
  store: MongoDeliveryStore;
  endpointRepo: MongoEndpointRepository;
  cipher: CredentialCipher;
  publisher: RecordingPublisher;
  logs: Record<string, unknown>[];
  logger: Logger;
  registry: Registry;
  endpoints: EndpointUseCases;
  deliveryLog: DeliveryLog;
  /** The per-delivery cap of manual redeliveries deliveryLog applies. */
  maxManualRedeliveries: number;
  /** Starts a worker (one notifier instance) and its acceptance use case; each call is a new instance. */
  instance(
    options?: Partial<DeliveryWorkerOptions>,
    allowList?: string[],
    extras?: { stats?: WebhookStatsSink },
  ): { worker: DeliveryWorker; accept: AcceptAlarm; cache: EndpointCache };
  /** The delivery once it has finished (succeeded or dead), read back from the store; fails after `timeoutMs`. */
  finished(deliveryId: string, timeoutMs?: number): Promise<Delivery>;
  close(): Promise<void>;
}

export async function startHarness(): Promise<NotifierHarness> {
  const infra = testInfra();
  const mongo = await connectMongo({ url: infra.mongoUrl, dbName: uniqueName('notifier').replace(/-/g, '_'), appName: 'notifier-test' });
  await ensureNotifierIndexes(mongo.db);
  const logs: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  const logger = createLogger({ service: 'notifier-test', level: 'info', destination });
  const cipher = new CredentialCipher(parseKeyring(`k1:${randomBytes(32).toString('base64')}`));
  const store = new MongoDeliveryStore(mongo.db);
  const endpointRepo = new MongoEndpointRepository(mongo.db, cipher);
  const publisher = new RecordingPublisher();
  const registry = new Registry();
  const metrics = new DeliveryMetrics(registry);
  const workers: DeliveryWorker[] = [];
  const senders: NodeWebhookSender[] = [];
  const registrationPolicy = new SsrfPolicy(['127.0.0.1/32']);
  const endpoints = new EndpointUseCases({
    repository: endpointRepo,
    clock: systemClock,
    urlGuard: new UrlGuard(registrationPolicy),
    policyBounds: TEST_POLICY_BOUNDS,
  });
  // Low, so a test reaches the per-delivery cap in a few redeliveries.
  const maxManualRedeliveries = 2;
  const deliveryLog = new DeliveryLog({ store, endpoints: endpointRepo, clock: systemClock, maxManualRedeliveries });

  return {
    maxManualRedeliveries,
    mongo,
    store,
    endpointRepo,
    cipher,
    publisher,
    logs,
    logger,
    registry,
    endpoints,
    deliveryLog,
    instance(options = {}, allowList = ['127.0.0.1/32'], extras = {}) {
      const cache = new EndpointCache(endpointRepo, 200);
      const sender = new NodeWebhookSender({ policy: new SsrfPolicy(allowList), maxBodyBytes: 20_000, userAgent: 'Stormhook-Webhooks/test' });
      senders.push(sender);
      const health = new EndpointHealth({ repository: endpointRepo, cache, publisher, clock: systemClock, logger, autoDisableAfterMs: 60 * 60 * 1000 });
      const worker = new DeliveryWorker(
        { store, endpoints: cache, health, sender, publisher, clock: systemClock, logger, metrics, ...extras },
        { instanceId: newId('ep').replace('ep_', 'w_'), pollIntervalMs: 50, outboxIntervalMs: 500, recoveryIntervalMs: 100, ...options },
      );
      workers.push(worker);
      worker.start();
      return {
        worker,
        accept: new AcceptAlarm({ store, endpoints: cache, clock: systemClock, intake: worker, holdLeaseMs: worker.leaseMs, ...extras }),
        cache,
      };
    },
    finished(deliveryId, timeoutMs = 20_000) {
      return until(
        async () => {
          const d = await store.get(deliveryId);
          return d && d.status !== 'pending' ? d : undefined;
        },
        `delivery ${deliveryId} finished`,
        timeoutMs,
      );
    },
    async close() {
      await Promise.all(workers.map((w) => w.stop({ graceMs: 0 })));
      for (const s of senders) s.close();
      await mongo.db.dropDatabase();
      await mongo.close();
    },
  };
}

/** An AlarmTriggered for `accountId` with a forecast-shaped payload whose `id` is the ack id. */
export function alarmEvent(accountId: string, overrides: Partial<alarmV1.AlarmTriggered> = {}): alarmV1.AlarmTriggered {
  const notificationId = overrides.notificationId ?? newId('ntf');
  return alarmV1.AlarmTriggered.create({
    notificationId,
    accountId,
    registrationId: 'f7587d9e-2481-4b4c-818d-c8d1946851b7',
    registrationKind: 'REGISTRATION_KIND_FORECAST',
    recipientId: 'customer-user-001',
    eventKind: 'ALARM_EVENT_KIND_FORECAST',
    phase: 'ALARM_PHASE_START',
    eventId: 'evt-1',
    occurredAtEpochMs: Date.now(),
    triggeredAtEpochMs: Date.now(),
    payloadJson: JSON.stringify({
      id: `ack-${notificationId}`,
      registrationId: 'f7587d9e-2481-4b4c-818d-c8d1946851b7',
      recipientId: 'customer-user-001',
      violations: [],
    }),
    ...overrides,
  });
}

/** A valid endpoint configuration for the receiver path. */
export function endpointConfig(url: string, overrides: EndpointConfigInput = {}): EndpointConfigInput {
  return { url, httpMethod: 'POST', contentType: 'application/json', deliveryPolicy: { timeoutMs: 2_000, maxRetries: 0, retryDelaySeconds: 1 }, ...overrides };
}
