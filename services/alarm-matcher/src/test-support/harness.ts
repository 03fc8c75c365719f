import type { Kafka } from 'kafkajs';
import { createClient, type GrpcClient, testInternalTokens, tokenOfRequestPrincipal } from '@stormhook/grpc';
import { allTopics, createKafkaClient, createPublisher, ensureTopics, type Publisher } from '@stormhook/kafka';
import { createLogger, type Logger } from '@stormhook/logger';
import { alarmV1, notificationV1, type DeepPartial, type identityV1 } from '@stormhook/proto';
import { removeServiceTestEnv, serviceTestEnv, testInfra, uniqueName } from '@stormhook/testing';
import { loadConfig } from '../config.js';
import type { BacktestRunnerFactory } from '../compose.js';
import type { Clock } from '../ports/clock.js';
import { start, type RunningAlarmMatcher } from '../service.js';
import { AlarmTap } from './alarm-tap.js';
import { FakeIdentity } from './fake-identity.js';
import { startFakeGeo, type FakeGeo } from './fake-geo-server.js';
import { startFakeNotifier, type FakeNotifier } from './fake-notifier-server.js';

export interface HarnessOptions {
  instances?: number;
  clock?: Clock;
  /** Background jobs of the matchers (default false: tests run sweeps and ticks by hand). */
  backgroundJobs?: boolean;
  env?: Record<string, string>;
  /** Builds the matchers' back-test runner (default: HistoryBacktest reading query's history over gRPC, as in production). */
  backtestRunner?: BacktestRunnerFactory;
}

type Client = GrpcClient<typeof alarmV1.AlarmMatcherService>;

/** The gRPC client with partial requests (every field left out gets its protobuf default). */
export interface AlarmApi {
  registerAlarm(request: DeepPartial<alarmV1.RegisterAlarmRequest>): Promise<alarmV1.AlarmRegistration>;
  updateAlarm(request: DeepPartial<alarmV1.UpdateAlarmRequest>): Promise<alarmV1.AlarmRegistration>;
  unregisterAlarm(request: DeepPartial<alarmV1.AlarmByIdRequest>): Promise<alarmV1.UnregisterAlarmResponse>;
  getAlarm(request: DeepPartial<alarmV1.AlarmByIdRequest>): Promise<alarmV1.AlarmRegistration>;
  listAlarms(request: DeepPartial<alarmV1.ListAlarmsRequest>): Promise<alarmV1.ListAlarmsResponse>;
  listAlarmsByRecipient(request: DeepPartial<alarmV1.ListAlarmsByRecipientRequest>): Promise<alarmV1.ListAlarmsResponse>;
  listForecastThresholds(request: DeepPartial<alarmV1.ListForecastThresholdsRequest>): Promise<alarmV1.ListForecastThresholdsResponse>;
  runForecastSlot(request: DeepPartial<alarmV1.RunForecastSlotRequest>): Promise<alarmV1.RunForecastSlotResponse>;
  backtestAlarm(request: DeepPartial<alarmV1.BacktestAlarmRequest>): Promise<alarmV1.BacktestAlarmResponse>;
}

export function alarmApi(client: Client): AlarmApi {
  return {
    registerAlarm: (r) => client.registerAlarm(alarmV1.RegisterAlarmRequest.create(r)),
    updateAlarm: (r) => client.updateAlarm(alarmV1.UpdateAlarmRequest.create(r)),
    unregisterAlarm: (r) => client.unregisterAlarm(alarmV1.AlarmByIdRequest.create(r)),
    getAlarm: (r) => client.getAlarm(alarmV1.AlarmByIdRequest.create(r)),
    listAlarms: (r) => client.listAlarms(alarmV1.ListAlarmsRequest.create(r)),
    listAlarmsByRecipient: (r) => client.listAlarmsByRecipient(alarmV1.ListAlarmsByRecipientRequest.create(r)),
    listForecastThresholds: (r) => client.listForecastThresholds(alarmV1.ListForecastThresholdsRequest.create(r)),
    runForecastSlot: (r) => client.runForecastSlot(alarmV1.RunForecastSlotRequest.create(r)),
    backtestAlarm: (r) => client.backtestAlarm(alarmV1.BacktestAlarmRequest.create(r)),
  };
}

export interface Harness {
  matchers: RunningAlarmMatcher[];
  client: AlarmApi;
  kafka: Kafka;
  publisher: Publisher;
  alarms: AlarmTap;
  geo: FakeGeo;
  notifier: FakeNotifier;
  /** What identity answers about registration owners (entitled unless a test changes it). */
  identity: FakeIdentity;
  topicPrefix: string;
  /** STORMHOOK_DB_PREFIX of the matchers (a benchmark seeds their database under it). */
  dbPrefix: string;
  logger: Logger;
  /** Starts one more matcher on the same database and topics. */
  startMatcher(): Promise<RunningAlarmMatcher>;
  stop(): Promise<void>;
}

export const ACCOUNT_A = '0a0a0a0a-1111-4111-8111-0a0a0a0a0a0a';
export const ACCOUNT_B = '0b0b0b0b-2222-4222-8222-0b0b0b0b0b0b';

export function principal(accountId: string, role = 'API_USER', userId = `${accountId.slice(0, 8)}-user`): identityV1.Principal {
  return { userId, accountId, role, username: `${userId}@example.com`, via: 'access-token' };
}

export const FULL_WEBHOOK: DeepPartial<notificationV1.WebhookEndpointConfig> = {
  url: 'https://hooks.example.com/alarms',
  httpMethod: 'POST',
  contentType: 'application/json',
  authentication: { type: 'WEBHOOK_AUTH_TYPE_API_KEY_HEADER', username: 'svc', password: 's3cret' },
  requestHeaders: { 'X-Tenant': 'a' },
  deliveryPolicy: { timeoutMs: 5_000, maxRetries: 3, retryDelaySeconds: 10 },
};

/**
 * One or more matchers on the real Kafka and database, isolated by a fresh topic prefix and database
 * prefix, with in-process fake geo and notifier gRPC servers, identity's answers set by the test, and a
 * tap on alarm.triggered.v1.
 */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const infra = testInfra();
  const testEnv = serviceTestEnv('am', infra);
  const { env, topicPrefix, dbPrefix } = testEnv;
  const logger = createLogger({ service: 'alarm-matcher-test', level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
  const kafka = createKafkaClient({ brokers: infra.kafkaBrokers, credentials: infra.kafkaCredentials, clientId: uniqueName('am-test'), logger });
  await ensureTopics(kafka, allTopics(), { prefix: topicPrefix });
  const geo = await startFakeGeo(logger);
  const notifier = await startFakeNotifier(logger);
  const config = loadConfig({
    ...env,
    LOG_LEVEL: 'silent',
    GEO_GRPC_ADDRESS: geo.address,
    NOTIFIER_GRPC_ADDRESS: notifier.address,
    ...options.env,
  });
  const identity = new FakeIdentity();
  const matchers: RunningAlarmMatcher[] = [];
  const startMatcher = async () => {
    const matcher = await start(config, {
      logger: logger.child({ instance: matchers.length }),
      backgroundJobs: options.backgroundJobs ?? false,
      entitlements: identity,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.backtestRunner ? { backtestRunner: options.backtestRunner } : {}),
    });
    matchers.push(matcher);
    return matcher;
  };
  const publisher = createPublisher(kafka, { logger, clientId: uniqueName('am-test-pub'), prefix: topicPrefix });
  const alarms = new AlarmTap(kafka, topicPrefix);
  try {
    for (let i = 0; i < (options.instances ?? 1); i++) await startMatcher();
    await publisher.connect();
    await alarms.start();
  } catch (error) {
    await Promise.all(matchers.map((m) => m.stop()));
    await Promise.all([geo.stop(), notifier.stop()]);
    throw error;
  }
  const grpcClient = createClient(alarmV1.AlarmMatcherService, `127.0.0.1:${matchers[0]!.port}`, {
    internalToken: tokenOfRequestPrincipal(testInternalTokens(), 'alarm-matcher'),
  });
  return {
    matchers,
    client: alarmApi(grpcClient),
    kafka,
    publisher,
    alarms,
    geo,
    notifier,
    identity,
    topicPrefix,
    dbPrefix,
    logger,
    startMatcher,
    async stop() {
      grpcClient.close();
      await alarms.stop();
      await publisher.disconnect();
      await Promise.all(matchers.map((m) => m.stop()));
      await Promise.all([geo.stop(), notifier.stop()]);
      await removeServiceTestEnv(infra, testEnv);
    },
  };
}
