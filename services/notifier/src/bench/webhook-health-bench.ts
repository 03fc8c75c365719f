/**
 * Webhook health and recovery benchmark (issue 30), on the real database:
 *
 *   health      GET /v1/alarms/webhooks/health's use case with 1,000,000 attempts stored: the attempt
 *               log written as the notifier writes it, the same attempts counted by two statistics
 *               writers (two notifier processes, one of them this one), then health answers for
 *               random accounts. Beside it, in the same run: one `_id` lookup (the floor of any
 *               answer) and counting one account's attempts in the log (the scan the design avoids).
 *   recover     100,000 dead deliveries of one account sent again by a `failed` recovery, through the
 *               real worker to a local receiver in its own process, while another account's live
 *               deliveries keep arriving at a fixed rate: the recovery's callbacks per second, and the
 *               live deliveries' latency (acceptance to receipt) before the recovery, while it is chosen
 *               and queued, and while it sends.
 *
 *   MONGO_URL=... node services/notifier/dist/bench/webhook-health-bench.js
 *   (HEALTH_ATTEMPTS=1000000 RECOVER_DELIVERIES=100000 LIVE_RATE=100 to change the sizes)
 *
 * bench-time-limit: 90 min (npm run bench's limit for this file: a week's log of a million attempts
 * written and read, then a recovery of 100,000 callbacks at 50/s, which alone may take its
 * RECOVER_MAX_SECONDS of an hour; about 40 minutes on this machine).
 */
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { createLogger, type Logger } from '@stormhook/logger';
import { reportBench } from '@stormhook/testing';
import { Registry } from 'prom-client';
import { DeliveryWorker } from '../delivery/delivery-worker.js';
import { EndpointCache } from '../delivery/endpoint-cache.js';
import { EndpointHealth } from '../delivery/endpoint-health.js';
import { DEFAULT_STATS_WRITES, WebhookStatsRecorder } from '../delivery/webhook-stats-recorder.js';
import { DEFAULT_WORKER_OPTIONS } from '../delivery/worker-options.js';
import { newDeliveryState, type Delivery } from '../domain/delivery.js';
import type { FailureClass } from '../domain/failure-class.js';
import { NodeWebhookSender } from '../http/node-sender.js';
import { DeliveryMetrics } from '../metrics/delivery-metrics.js';
import { fromAttemptDocument, toAttemptDocument, type AttemptDocument } from '../persistence/attempt-document.js';
import { COLLECTIONS, ensureNotifierIndexes } from '../persistence/collections.js';
import { toDeliveryDocument, type DeliveryDocument } from '../persistence/delivery-document.js';
import { MongoDeliveryStore } from '../persistence/mongo-delivery-store.js';
import { MongoEndpointRepository } from '../persistence/mongo-endpoint-repository.js';
import { MongoRecoveryJobStore } from '../persistence/mongo-recovery-job-store.js';
import { MongoWebhookStatsStore } from '../persistence/mongo-webhook-stats-store.js';
import { systemClock } from '../ports/clock.js';
import type { NotifierEventPublisher } from '../ports/event-publisher.js';
import { CredentialCipher, parseKeyring } from '../security/credential-cipher.js';
import { SsrfPolicy } from '../security/ssrf-policy.js';
import { UrlGuard } from '../security/url-guard.js';
import { alarmEvent } from '../test-support/harness.js';
import { AcceptAlarm } from '../usecases/accept-alarm.js';
import { EndpointUseCases } from '../usecases/endpoint-usecases.js';
import { RecoverDeliveries, type RecoveryJobView } from '../usecases/recover-deliveries.js';
import { WebhookHealth } from '../usecases/webhook-health.js';
import { WebhookStatsReader } from '../usecases/webhook-stats-reader.js';
import { epochMs } from './bench-receivers.js';
import { Receivers } from './receivers-process.js';

const BENCH = 'notifier webhook health and recovery';
const ACCOUNTS = 1_000;
const FAILURES: readonly FailureClass[] = ['TIMEOUT', 'HTTP_5XX', 'CONNECTION_REFUSED', 'HTTP_4XX'];

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const round = (n: number, digits = 2): number => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function freshDb(mongoUrl: string, name: string): Promise<{ db: Db; close: () => Promise<void> }> {
  const client = await new MongoClient(mongoUrl, { appName: `notifier-bench-${name}` }).connect();
  const db = client.db(`bench_${name}_${Date.now().toString(36)}`);
  await ensureNotifierIndexes(db);
  return {
    db,
    close: async () => {
      await db.dropDatabase();
      await client.close();
    },
  };
}

function endpointUseCases(db: Db): { repository: MongoEndpointRepository; endpoints: EndpointUseCases; cache: EndpointCache } {
  const repository = new MongoEndpointRepository(db, new CredentialCipher(parseKeyring(`bench:${randomBytes(32).toString('base64')}`)));
  const cache = new EndpointCache(repository);
  return {
    repository,
    cache,
    endpoints: new EndpointUseCases({ repository, clock: systemClock, urlGuard: new UrlGuard(new SsrfPolicy(['127.0.0.1/32'])), cache }),
  };
}

async function healthRun(mongoUrl: string, attempts: number, logger: Logger): Promise<void> {
  const mongo = await freshDb(mongoUrl, 'health');
  const now = Date.now();
  const log = mongo.db.collection<AttemptDocument>(COLLECTIONS.attempts);
  const statsStore = new MongoWebhookStatsStore(mongo.db);
  const recorder = (writerId: string) =>
    new WebhookStatsRecorder({ store: statsStore, clock: systemClock, logger }, { writerId, flushIntervalMs: 60_000, maxAccountsPerFlush: ACCOUNTS });
  const writers = [recorder('bench-this-process'), recorder('bench-other-process')];

  // The attempt log of a week, as the notifier writes it, and the same attempts counted by two processes.
  const written = performance.now();
  const BATCH = 5_000;
  for (let start = 0; start < attempts; start += BATCH) {
    const docs: AttemptDocument[] = [];
    for (let i = start; i < Math.min(attempts, start + BATCH); i++) {
      const accountId = `acc-${i % ACCOUNTS}`;
      const at = now - Math.floor(((attempts - i) / attempts) * 7 * 86_400_000);
      const succeeded = i % 10 !== 0;
      const failureClass = succeeded ? undefined : FAILURES[(i / 10) % FAILURES.length];
      const deliveryId = `ntf_${i.toString(36)}`;
      const durationMs = 20 + (i % 300);
      docs.push(
        toAttemptDocument(deliveryId, accountId, {
          attempt: {
            attemptNumber: 1,
            trigger: 'scheduled',
            url: 'https://hooks.example.com/stormhook',
            startedAt: new Date(at - durationMs),
            durationMs,
            responseStatus: succeeded ? 200 : failureClass === 'HTTP_5XX' ? 503 : null,
            responseBody: '',
            responseBodyTruncated: false,
            succeeded,
            error: succeeded ? null : 'HTTP 503',
            nextAttemptAt: null,
            ...(failureClass ? { failureClass } : {}),
          },
          outcome: {
            status: succeeded ? 'succeeded' : 'dead',
            finishedAt: new Date(at),
            failureReason: succeeded ? null : 'retries-exhausted',
            publishFailure: false,
            endpointId: 'ep',
          },
        }),
      );
      (writers[i % 2] as WebhookStatsRecorder).attempted(accountId, {
        at,
        durationMs,
        succeeded,
        failure: failureClass ? { failureClass, status: failureClass === 'HTTP_5XX' ? 503 : null } : undefined,
        example: { notificationId: deliveryId, attemptNumber: 1, responseStatus: null, error: 'HTTP 503' },
        weatherAgeMs: succeeded ? 1_500 + (i % 4_000) : undefined,
      });
    }
    await log.insertMany(docs, { ordered: false });
  }
  const logSeconds = (performance.now() - written) / 1000;
  for (const w of writers) await w.stop();
  const stored = await log.estimatedDocumentCount();
  if (stored < attempts) throw new Error(`the attempt log holds ${stored} attempts, expected ${attempts}`);

  const { repository, endpoints } = endpointUseCases(mongo.db);
  const sampled = Array.from({ length: 50 }, (_, i) => `acc-${(i * 19) % ACCOUNTS}`);
  for (const accountId of sampled) {
    const created = await endpoints.create(accountId, { url: 'https://hooks.example.com/stormhook' });
    if (!created.ok) throw new Error(created.error.message);
  }
  const reader = new WebhookStatsReader({ recorder: writers[0] as WebhookStatsRecorder, store: statsStore, writersCacheMs: 10_000 });
  const health = new WebhookHealth({ endpoints: repository, stats: reader, clock: systemClock });
  const times: number[] = [];
  let checked = 0;
  for (let i = 0; i < 500; i++) {
    const accountId = sampled[i % sampled.length] as string;
    const t = performance.now();
    const answer = await health.get(accountId);
    times.push(performance.now() - t);
    if (!answer.ok) throw new Error(answer.error.message);
    checked += answer.value.figures.last7Days.attempts;
  }
  if (checked !== (attempts / ACCOUNTS) * 500) throw new Error(`health counted ${checked} attempts, expected ${(attempts / ACCOUNTS) * 500}`);
  const floor: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    await mongo.db.collection(COLLECTIONS.webhookStats).findOne({ _id: `${sampled[i % sampled.length]}|bench-other-process` } as never);
    floor.push(performance.now() - t);
  }
  const scans: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await log.countDocuments({ accountId: sampled[i] });
    scans.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  floor.sort((a, b) => a - b);
  scans.sort((a, b) => a - b);
  const note = `${attempts.toLocaleString('en')} attempts stored over ${ACCOUNTS} accounts and 7 days, counted by 2 writers; 500 answers for 50 accounts`;
  console.log(
    JSON.stringify({ attempts, logSeconds: round(logSeconds, 1), p50: times[249], p99: percentile(times, 99), floorP50: floor[100], scanMedian: scans[1] }),
  );
  reportBench({ bench: BENCH, metric: 'health answer p50', value: round(times[249] as number), unit: 'ms', note });
  reportBench({ bench: BENCH, metric: 'health answer p99', value: round(percentile(times, 99)), unit: 'ms', note });
  reportBench({
    bench: BENCH,
    metric: 'one _id lookup p50 (floor)',
    value: round(floor[100] as number),
    unit: 'ms',
    note: 'the same database, the same moment',
  });
  reportBench({
    bench: BENCH,
    metric: "counting one account's attempts in the log (the scan avoided)",
    value: round(scans[1] as number, 0),
    unit: 'ms',
    note: `${attempts.toLocaleString('en')} attempts, median of 3`,
  });
  await mongo.close();
}

async function recoverRun(mongoUrl: string, dead: number, liveRate: number, recoverRate: number, logger: Logger): Promise<void> {
  const mongo = await freshDb(mongoUrl, 'recover');
  const { receivers, ports } = await Receivers.start(2, -1);
  const { repository, endpoints, cache } = endpointUseCases(mongo.db);
  for (const [accountId, port] of [
    ['acc-recover', ports[0]],
    ['acc-live', ports[1]],
  ] as const) {
    const created = await endpoints.create(accountId, {
      url: `http://127.0.0.1:${port}/hook`,
      deliveryPolicy: { timeoutMs: 5_000, maxRetries: 3, retryDelaySeconds: 10 },
    });
    if (!created.ok) throw new Error(created.error.message);
  }
  const endpointId = (await repository.findByAccount('acc-recover'))?.id ?? '';

  // The dead deliveries of a receiver that was down for an hour: one attempt each, retries spent.
  const deliveries = mongo.db.collection<DeliveryDocument>(COLLECTIONS.deliveries);
  const since = Date.now() - 3_600_000;
  for (let start = 0; start < dead; start += 5_000) {
    const docs: DeliveryDocument[] = [];
    for (let i = start; i < Math.min(dead, start + 5_000); i++) {
      const at = new Date(since + Math.floor((i / dead) * 3_500_000));
      const event = alarmEvent('acc-recover', {
        payloadJson: JSON.stringify({ type: 'lightning.strike', id: `ack-${i}`, n: i }),
        acknowledgementId: `ack-${i}`,
      });
      const delivery: Delivery = {
        id: event.notificationId,
        accountId: 'acc-recover',
        endpointId,
        registrationId: event.registrationId,
        registrationKind: 'POINT',
        recipientId: event.recipientId,
        eventKind: 'LIGHTNING',
        phase: 'START',
        eventId: `strike-${i}`,
        occurredAt: at,
        triggeredAt: at,
        payload: event.payloadJson,
        callbackType: 'lightning.strike',
        ackId: `ack-${i}`,
        test: false,
        ...newDeliveryState(at),
        status: 'dead',
        attemptCount: 1,
        nextAttemptAt: null,
        finishedAt: at,
        failureReason: 'retries-exhausted',
        lastError: 'HTTP 503',
      };
      docs.push({ ...toDeliveryDocument(delivery), stateAttempt: 1 });
    }
    await deliveries.insertMany(docs, { ordered: false });
  }

  const store = new MongoDeliveryStore(mongo.db);
  const statsStore = new MongoWebhookStatsStore(mongo.db);
  const stats = new WebhookStatsRecorder({ store: statsStore, clock: systemClock, logger }, { writerId: 'bench', ...DEFAULT_STATS_WRITES });
  const publisher: NotifierEventPublisher = { deliveryFailed: async () => undefined, messageRequested: async () => undefined };
  const sender = new NodeWebhookSender({
    policy: new SsrfPolicy(['127.0.0.1/32']),
    maxBodyBytes: 20_000,
    userAgent: 'Stormhook-Webhooks/bench',
    maxSocketsPerHost: DEFAULT_WORKER_OPTIONS.perEndpointConcurrency,
  });
  const health = new EndpointHealth({ repository, cache, publisher, clock: systemClock, logger, autoDisableAfterMs: 86_400_000 });
  const worker = new DeliveryWorker(
    { store, endpoints: cache, health, sender, publisher, clock: systemClock, logger, metrics: new DeliveryMetrics(new Registry()), stats },
    { instanceId: 'bench' },
  );
  worker.start();
  stats.start();
  const accept = new AcceptAlarm({ store, endpoints: cache, clock: systemClock, intake: worker, holdLeaseMs: worker.leaseMs, stats });
  const recoveries = new RecoverDeliveries({
    store,
    jobs: new MongoRecoveryJobStore(mongo.db),
    endpoints: repository,
    stats,
    progress: new WebhookStatsReader({ recorder: stats, store: statsStore, writersCacheMs: 10_000 }),
    clock: systemClock,
    logger,
    worker,
    maxCallbacks: Math.max(100_000, dead),
    ratePerSecond: recoverRate,
    retentionDays: 30,
  });

  // Live deliveries at a fixed rate, each timed from acceptance to receipt, by phase.
  const accepted = new Map<string, { at: number; phase: 'before' | 'queuing' | 'sending' }>();
  const run = { phase: 'before' as 'before' | 'queuing' | 'sending' | 'stop' };
  const live = (async () => {
    const started = performance.now();
    for (let n = 0; run.phase !== 'stop'; n++) {
      const due = started + (n * 1000) / liveRate;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const event = alarmEvent('acc-live');
      const { phase } = run as { phase: 'before' | 'queuing' | 'sending' | 'stop' };
      accepted.set(event.notificationId, { at: epochMs(), phase: phase === 'stop' ? 'sending' : phase });
      void accept.execute(event);
    }
  })();
  await sleep(20_000);
  run.phase = 'queuing';
  const recoveryStarted = epochMs();
  // Choosing reads the account's deliveries and attempt log once (a scan on this database).
  const job = await recoveries.start('acc-recover', { mode: 'failed', since: new Date(since - 60_000), until: new Date() });
  if (!job.ok) throw new Error(job.error.message);
  const queuedAt = epochMs();
  run.phase = 'sending';
  const progress = async (): Promise<RecoveryJobView> => {
    await sleep(1_000);
    const read = await recoveries.get('acc-recover', job.value.id);
    if (!read.ok) throw new Error(read.error.message);
    return read.value;
  };
  let state = await progress();
  // RECOVER_MAX_SECONDS cuts a long recovery short: what it sent by then is measured, the rest is not waited for.
  const limitMs = Number(process.env['RECOVER_MAX_SECONDS'] ?? 3_600) * 1_000;
  while (state.state === 'RUNNING' && epochMs() - queuedAt < limitMs) state = await progress();
  await recoveries.stop();
  const recoveryEnded = epochMs();
  run.phase = 'stop';
  await live;
  await sleep(2_000);
  const received = await receivers.dump();
  const latency = (which: 'before' | 'queuing' | 'sending'): number[] =>
    [...accepted]
      .filter(([, a]) => a.phase === which)
      .map(([id, a]) => (received.get(id) ?? Infinity) - a.at)
      .sort((a, b) => a - b);
  const before = latency('before');
  const queuing = latency('queuing');
  const during = latency('sending');
  const recoveredReceived = [...received.keys()].filter((id) => !accepted.has(id)).length;
  // A recovered callback is tried once: say why the ones that failed did (the job only counts them).
  // The attempt's fields are packed (persistence/packed-fields.ts), so the choice is made here.
  const failures = (
    await mongo.db
      .collection<AttemptDocument>(COLLECTIONS.attempts)
      .find({ accountId: 'acc-recover' }, { projection: { responseBody: 0 } })
      .toArray()
  )
    .map((doc) => fromAttemptDocument(doc).attempt)
    .filter((attempt) => attempt.attemptNumber > 1 && attempt.failureClass !== undefined)
    .slice(0, 20);
  await worker.stop({ graceMs: 0 });
  await stats.stop();
  sender.close();
  await receivers.close();
  await mongo.close();

  const seconds = (recoveryEnded - recoveryStarted) / 1000;
  const result = {
    dead,
    state: state.state,
    sent: state.sent,
    failed: state.failed,
    recoveredReceived,
    chosenSeconds: round((queuedAt - recoveryStarted) / 1000, 1),
    seconds: round(seconds, 1),
    perSecond: Math.round(state.sent / ((recoveryEnded - queuedAt) / 1000)),
    failures: failures.map((f) => ({ class: f.failureClass, error: f.error, ms: f.durationMs })),
    live: {
      rate: liveRate,
      before: { n: before.length, p50: percentile(before, 50), p99: percentile(before, 99) },
      queuing: { n: queuing.length, p50: percentile(queuing, 50), p99: percentile(queuing, 99) },
      sending: { n: during.length, p50: percentile(during, 50), p99: percentile(during, 99) },
    },
  };
  console.log(JSON.stringify(result));
  const cut = state.state === 'RUNNING';
  // Every dead delivery is either received or reported failed by the job (the customer sees the count and
  // can recover the failed ones again); none may vanish unaccounted.
  if (state.state === 'FAILED' || recoveredReceived < state.sent || (!cut && recoveredReceived + state.failed < dead)) {
    throw new Error(`the recovery did not deliver every callback: ${JSON.stringify(result)}`);
  }
  const note = `${dead.toLocaleString('en')} dead deliveries of one account sent again by a failed-mode recovery to a local receiver, beside ${liveRate} live deliveries/s of another account`;
  reportBench({
    bench: BENCH,
    metric: 'recovery throughput',
    value: result.perSecond,
    unit: 'callbacks/s',
    note: cut
      ? `${note}; chosen in ${result.chosenSeconds} s; cut short by RECOVER_MAX_SECONDS after ${result.sent.toLocaleString('en')} sent in ${result.seconds} s at the configured ${recoverRate}/s (the rest follows at the same rate)`
      : `${note}; chosen in ${result.chosenSeconds} s, ${result.recoveredReceived.toLocaleString('en')} received and ${result.failed} failed on their one attempt (${JSON.stringify(result.failures)}), in ${result.seconds} s at the configured ${recoverRate}/s`,
  });
  reportBench({
    bench: BENCH,
    metric: 'live p99 without recovery',
    value: Math.round(percentile(before, 99)),
    unit: 'ms',
    note: `acceptance to receipt, ${before.length} deliveries in the 20 s before`,
  });
  reportBench({
    bench: BENCH,
    metric: 'live p99 while the recovery is chosen',
    value: Math.round(percentile(queuing, 99)),
    unit: 'ms',
    note: `acceptance to receipt, ${queuing.length} deliveries in the ${result.chosenSeconds} s it took (one read of the account's deliveries and attempt log)`,
  });
  reportBench({
    bench: BENCH,
    metric: 'live p99 while the recovery sends',
    value: Math.round(percentile(during, 99)),
    unit: 'ms',
    note: `acceptance to receipt, ${during.length} deliveries while it sent at ${recoverRate}/s`,
  });
  reportBench({
    bench: BENCH,
    metric: 'live p99 while the recovery sends / without',
    value: round(percentile(during, 99) / percentile(before, 99)),
    unit: 'ratio',
    note: 'target at most 2',
  });
}

async function main(): Promise<void> {
  const mongoUrl = process.env['MONGO_URL'] ?? 'mongodb://127.0.0.1:27017';
  const logger = createLogger({ service: 'webhook-health-bench', level: 'error' });
  // BENCH_PARTS=health or =recover runs one part alone.
  const parts = (process.env['BENCH_PARTS'] ?? 'health,recover').split(',');
  if (parts.includes('health')) await healthRun(mongoUrl, Number(process.env['HEALTH_ATTEMPTS'] ?? 1_000_000), logger);
  if (!parts.includes('recover')) return;
  await recoverRun(
    mongoUrl,
    Number(process.env['RECOVER_DELIVERIES'] ?? 100_000),
    Number(process.env['LIVE_RATE'] ?? 100),
    Number(process.env['RECOVER_RATE'] ?? 50),
    logger,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
