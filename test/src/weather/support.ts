import { generateKeyPairSync } from 'node:crypto';
import * as gateway from '@stormhook/gateway';
import type { RunningGateway } from '@stormhook/gateway';
import * as geo from '@stormhook/geo';
import * as identity from '@stormhook/identity';
import * as ingest from '@stormhook/ingest';
import { createKafkaClient, createPublisher, type EventType, type Publisher, type TopicName } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import * as query from '@stormhook/query';
import type { RunningGrpcService } from '@stormhook/service-kit';
import { testInfra, uniqueName } from '@stormhook/testing';
import { dropPrefixedDatabases } from '../support/databases.js';
import { deletePrefixedTopics } from '../support/topics.js';

export const ADMIN = { username: 'admin@stormhook.test', password: 'admin-password-1' };

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  bytes: Buffer;
}

export interface CallOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}

export interface WeatherStack {
  baseUrl: string;
  services: Record<string, RunningGrpcService>;
  gateway: RunningGateway;
  /** Publishes to the stack's (prefixed) topics. */
  publisher: Publisher;
  /** Running totals of the weather records query consumed. */
  counters: query.WeatherCounters;
  /** Query's retention job, to run it at once. */
  maintenance(): query.Maintenance;
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  adminToken(): Promise<string>;
  /** An ACTIVE user with `role` and, with `plan`, an account on that plan. */
  user(role: string, plan?: string): Promise<{ userId: string; token: string; accountId?: string }>;
  /** An API_USER whose CUSTOM plan grants the data services inside `boundary` only. */
  regionalUser(boundary: { country: string; region?: string }): Promise<{ token: string }>;
  publish(topic: TopicName, eventType: EventType, events: Array<{ key: string; value: Uint8Array }>): Promise<void>;
  stop(): Promise<void>;
}

/**
 * geo, identity, query (and with `withIngest` ingest) and a gateway in this process on port 0,
 * against the real Kafka and database, under a fresh database and topic prefix. Copied in spirit
 * from test/src/identity/support.ts, with the query service wired in for real.
 */
export async function startWeatherStack(options: { withIngest?: boolean; queryEnv?: Record<string, string> } = {}): Promise<WeatherStack> {
  const infra = testInfra();
  const dbPrefix = uniqueName('wx').replace(/-/g, '_');
  const topicPrefix = uniqueName('wx');
  const logger = createLogger({ service: 'weather-it', level: process.env['LOG_LEVEL'] ?? 'silent' });
  const env: Record<string, string> = {
    KAFKA_BROKERS: infra.kafkaBrokers.join(','),
    MONGO_URL: infra.mongoUrl,
    LOG_LEVEL: 'silent',
    STORMHOOK_DB_PREFIX: dbPrefix,
    STORMHOOK_TOPIC_PREFIX: topicPrefix,
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: '0',
  };
  const started: Array<{ stop(): Promise<void> }> = [];
  const services: Record<string, RunningGrpcService> = {};
  const kafka = createKafkaClient({ brokers: infra.kafkaBrokers, clientId: 'weather-it', logger });
  const publisher = createPublisher(kafka, { logger, clientId: 'weather-it', prefix: topicPrefix });
  const stopAll = async () => {
    for (const s of started.reverse()) await s.stop().catch(() => undefined);
    await publisher.disconnect().catch(() => undefined);
    await deletePrefixedTopics(infra.kafkaBrokers, topicPrefix).catch(() => undefined);
    await dropPrefixedDatabases(infra.mongoUrl, dbPrefix).catch(() => undefined);
  };
  try {
    services['geo'] = await geo.start(geo.loadConfig(env), { logger: logger.child({ service: 'geo' }) });
    started.push(services['geo']);
    const geoAddress = `127.0.0.1:${services['geo'].port}`;
    const { privateKey } = generateKeyPairSync('ed25519');
    services['identity'] = await identity.start(
      identity.loadConfig({
        ...env,
        STORMHOOK_ADMIN_EMAIL: ADMIN.username,
        STORMHOOK_ADMIN_PASSWORD: ADMIN.password,
        IDENTITY_JWT_PRIVATE_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
        IDENTITY_PASSWORD_HASH_COST: '10',
        GEO_GRPC_ADDRESS: geoAddress,
      }),
      { logger: logger.child({ service: 'identity' }) },
    );
    started.push(services['identity']);
    const counters = query.newWeatherCounters();
    let maintenance: query.Maintenance | undefined;
    services['query'] = await query.start(query.loadConfig({ ...env, GEO_GRPC_ADDRESS: geoAddress, ...options.queryEnv }), {
      logger: logger.child({ service: 'query' }),
      counters,
      onMaintenance: (m) => (maintenance = m),
    });
    started.push(services['query']);
    if (options.withIngest) {
      services['ingest'] = await ingest.start(ingest.loadConfig(env), { logger: logger.child({ service: 'ingest' }) });
      started.push(services['ingest']);
    }
    const runningGateway = await gateway.start(
      gateway.loadConfig({
        ...env,
        HTTP_HOST: '127.0.0.1',
        HTTP_PORT: '0',
        IDENTITY_GRPC_ADDRESS: `127.0.0.1:${services['identity'].port}`,
        GEO_GRPC_ADDRESS: geoAddress,
        QUERY_GRPC_ADDRESS: `127.0.0.1:${services['query'].port}`,
      }),
      { logger: logger.child({ service: 'gateway' }) },
    );
    started.push(runningGateway);
    const baseUrl = `http://127.0.0.1:${runningGateway.port}`;
    await publisher.connect();

    const call: WeatherStack['call'] = async (method, path, o = {}) => {
      const headers: Record<string, string> = { ...o.headers };
      if (o.token) headers['authorization'] = `Bearer ${o.token}`;
      const init: RequestInit = { method, headers };
      if (o.body !== undefined) {
        headers['content-type'] = 'application/json';
        init.body = JSON.stringify(o.body);
      }
      const response = await fetch(`${baseUrl}${path}`, init);
      const bytes = Buffer.from(await response.arrayBuffer());
      const json = (response.headers.get('content-type') ?? '').includes('json') && bytes.length > 0;
      return { status: response.status, headers: response.headers, body: json ? JSON.parse(bytes.toString('utf8')) : {}, bytes };
    };
    const login = async (username: string, password: string) => {
      const answer = await call('POST', '/v1/auth/login', { body: { username, password } });
      if (answer.status !== 200) throw new Error(`login of ${username} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
      return String(answer.body['accessToken']);
    };
    let adminAccess: string | undefined;
    const adminToken = async () => (adminAccess ??= await login(ADMIN.username, ADMIN.password));
    let counter = 0;
    const user: WeatherStack['user'] = async (role, plan) => {
      const n = ++counter;
      const username = `wx-${role.toLowerCase().replace(/_/g, '-')}-${n}-${Date.now().toString(36)}@example.com`;
      const password = `password-${n}-secret`;
      const token = await adminToken();
      const created = await call('POST', '/v1/users/create', { token, body: { username, firstName: 'Weather', lastName: `User ${n}`, role, password } });
      if (created.status !== 201) throw new Error(`cannot create user: ${created.status} ${JSON.stringify(created.body)}`);
      const userId = String(created.body['userId']);
      let accountId: string | undefined;
      if (plan) {
        const account = await call('POST', '/v1/accounts/create', { token, body: { userId, type: 'ORGANIZATION', subscriptionPlan: plan } });
        if (account.status !== 200) throw new Error(`cannot create account: ${account.status} ${JSON.stringify(account.body)}`);
        accountId = String(account.body['id']);
      }
      return { userId, token: await login(username, password), ...(accountId ? { accountId } : {}) };
    };
    const regionalUser: WeatherStack['regionalUser'] = async (boundary) => {
      const u = await user('API_USER', 'NONE');
      const set = await call('POST', '/v1/accounts/update-subscription', {
        token: await adminToken(),
        body: {
          accountId: u.accountId,
          subscriptionPlan: 'CUSTOM',
          planDetails: {
            subscriptionExpirationEpoch: Date.now() + 30 * 86_400_000,
            details: [
              {
                limitResetRecurrence: { limitType: 'DAILY', limitResetInterval: 1 },
                geoBoundary: boundary,
                apiServiceLimits: ['precipitations', 'thunderstorms', 'forecasts'].map((serviceName) => ({ version: 'v1', serviceName, maxInvocation: 10_000 })),
              },
            ],
          },
        },
      });
      if (set.status !== 200) throw new Error(`cannot set subscription: ${set.status} ${JSON.stringify(set.body)}`);
      return { token: u.token };
    };
    return {
      baseUrl,
      services,
      gateway: runningGateway,
      publisher,
      counters,
      maintenance: () => {
        if (!maintenance) throw new Error('query did not hand over its maintenance job');
        return maintenance;
      },
      call,
      adminToken,
      user,
      regionalUser,
      async publish(topic, eventType, events) {
        await publisher.publish(
          topic,
          events.map((e) => ({ key: e.key, value: e.value, eventType })),
        );
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** Polls `probe` until it returns a value (not undefined) or the time is up. */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
