import { generateKeyPairSync, randomBytes } from 'node:crypto';
import * as alarmMatcher from '@stormhook/alarm-matcher';
import type { RunningAlarmMatcher } from '@stormhook/alarm-matcher';
import * as gateway from '@stormhook/gateway';
import * as geo from '@stormhook/geo';
import * as identity from '@stormhook/identity';
import { createLogger } from '@stormhook/logger';
import * as notifier from '@stormhook/notifier';
import type { RunningGrpcService } from '@stormhook/service-kit';
import { testInfra, uniqueName } from '@stormhook/testing';
import { dropPrefixedDatabases } from '../support/databases.js';
import { deletePrefixedTopics } from '../support/topics.js';
import { acknowledgeAlarm, Receiver as SharedReceiver } from '../support/receiver.js';

export const ADMIN = { username: 'admin@stormhook.test', password: 'admin-password-1' };

/** Places of the shared boundary data (test/../shared/data/geo). */
export const ANKARA = 6;
export const CANKAYA = 1231;
export const KECIOREN = 1745;
export const ISTANBUL = 34;
export const KADIKOY = 1421;
/** A Who's On First neighbourhood of Kadıköy. */
export const FIKIRTEPE = 1444830797;
/** Kızılay, central Çankaya. */
export const KIZILAY = { lng: 32.854, lat: 39.92 };

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, any>;
}

export interface TestUser {
  userId: string;
  username: string;
  token: string;
  accountId: string;
}

export interface AlarmStack {
  baseUrl: string;
  topicPrefix: string;
  matcher: RunningAlarmMatcher;
  call(method: string, path: string, options?: { body?: unknown; token?: string }): Promise<Answer>;
  adminToken(): Promise<string>;
  /** An ACTIVE user with `role` and an account on `plan` (PREMIUM_MONTHLY grants every alarm kind); the token names the account. */
  user(role: string, plan?: string): Promise<TestUser>;
  stop(): Promise<void>;
}

/**
 * geo (importing the shared boundaries), the notifier, identity, the alarm-matcher and a gateway in
 * this process on port 0, against the real Kafka and database, under a fresh database and topic
 * prefix. Geo and the notifier start first: the others learn their port 0 addresses through the
 * variables the dev stack sets. The notifier may call 127.0.0.1 (the SSRF allow-list), so a local
 * receiver can take the callbacks.
 */
export async function startAlarmStack(): Promise<AlarmStack> {
  const infra = testInfra();
  const dbPrefix = uniqueName('alm').replace(/-/g, '_');
  const topicPrefix = uniqueName('alm');
  const logger = createLogger({ service: 'alarms-it', level: process.env['LOG_LEVEL'] ?? 'silent' });
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
  const stopAll = async () => {
    for (const s of started.reverse()) await s.stop().catch(() => undefined);
    await deletePrefixedTopics(infra.kafkaBrokers, topicPrefix).catch(() => undefined);
    await dropPrefixedDatabases(infra.mongoUrl, dbPrefix).catch(() => undefined);
  };
  const track = <T extends { stop(): Promise<void> }>(service: T): T => {
    started.push(service);
    return service;
  };
  const address = (service: RunningGrpcService) => `127.0.0.1:${service.port}`;
  try {
    const geoService = track(await geo.start(geo.loadConfig(env), { logger: logger.child({ service: 'geo' }) }));
    if ((await geoService.platform.mongo.db.collection('areas').countDocuments()) === 0) {
      throw new Error('the geo service imported no boundaries: ../shared/data/geo is missing beside the checkout');
    }
    env['GEO_GRPC_ADDRESS'] = address(geoService);
    const notifierService = track(
      await notifier.start(
        notifier.loadConfig({
          ...env,
          CREDENTIAL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
          NOTIFIER_SSRF_ALLOW_CIDRS: '127.0.0.1/32',
          NOTIFIER_POLL_INTERVAL_MS: '50',
        }),
        { logger: logger.child({ service: 'notifier' }) },
      ),
    );
    env['NOTIFIER_GRPC_ADDRESS'] = address(notifierService);
    const { privateKey } = generateKeyPairSync('ed25519');
    const identityService = track(
      await identity.start(
        identity.loadConfig({
          ...env,
          STORMHOOK_ADMIN_EMAIL: ADMIN.username,
          STORMHOOK_ADMIN_PASSWORD: ADMIN.password,
          IDENTITY_JWT_PRIVATE_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
          IDENTITY_PASSWORD_HASH_COST: '10',
        }),
        { logger: logger.child({ service: 'identity' }) },
      ),
    );
    env['IDENTITY_GRPC_ADDRESS'] = address(identityService);
    const matcher = track(await alarmMatcher.start(alarmMatcher.loadConfig(env), { logger: logger.child({ service: 'alarm-matcher' }) }));
    env['ALARM_MATCHER_GRPC_ADDRESS'] = address(matcher);
    const running = track(
      await gateway.start(gateway.loadConfig({ ...env, HTTP_HOST: '127.0.0.1', HTTP_PORT: '0' }), { logger: logger.child({ service: 'gateway' }) }),
    );
    const baseUrl = `http://127.0.0.1:${running.port}`;

    const call: AlarmStack['call'] = async (method, path, options = {}) => {
      const headers: Record<string, string> = {};
      if (options.token) headers['authorization'] = `Bearer ${options.token}`;
      const init: RequestInit = { method, headers };
      if (options.body !== undefined) {
        headers['content-type'] = 'application/json';
        init.body = JSON.stringify(options.body);
      }
      const response = await fetch(`${baseUrl}${path}`, init);
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as Record<string, any>) };
    };
    const login = async (username: string, password: string): Promise<string> => {
      const answer = await call('POST', '/v1/auth/login', { body: { username, password } });
      if (answer.status !== 200) throw new Error(`login of ${username} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
      return String(answer.body['accessToken']);
    };
    let adminAccess: string | undefined;
    const adminToken = async () => (adminAccess ??= await login(ADMIN.username, ADMIN.password));
    let counter = 0;
    const user: AlarmStack['user'] = async (role, plan = 'PREMIUM_MONTHLY') => {
      const n = ++counter;
      const username = `alm-${role.toLowerCase().replace(/_/g, '-')}-${n}-${Date.now().toString(36)}@example.com`;
      const password = `password-${n}-secret`;
      const token = await adminToken();
      const created = await call('POST', '/v1/users/create', { token, body: { username, firstName: 'Alarm', lastName: `User ${n}`, role, password } });
      if (created.status !== 201) throw new Error(`cannot create user: ${created.status} ${JSON.stringify(created.body)}`);
      const userId = String(created.body['userId']);
      const account = await call('POST', '/v1/accounts/create', { token, body: { userId, type: 'ORGANIZATION', subscriptionPlan: plan } });
      if (account.status !== 200) throw new Error(`cannot create account: ${account.status} ${JSON.stringify(account.body)}`);
      return { userId, username, token: await login(username, password), accountId: String(account.body['id']) };
    };
    return { baseUrl, topicPrefix, matcher, call, adminToken, user, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

export { eventually, type ReceivedCallback } from '../support/receiver.js';

/** The suite's receiver acknowledges every callback as the incumbent's customers do (AlarmReceived). */
export class Receiver extends SharedReceiver {
  constructor() {
    super(acknowledgeAlarm);
  }
}

/** Asserts the ErrorResponse shape of interface.md 2.1 with `status`, and returns its message. */
export function errorMessage(answer: Answer, status: number): string {
  const b = answer.body;
  if (answer.status !== status || b['status'] !== status || typeof b['message'] !== 'string' || typeof b['error'] !== 'string' || typeof b['path'] !== 'string') {
    throw new Error(`expected an ErrorResponse with status ${status}, got ${answer.status}: ${JSON.stringify(b)}`);
  }
  return b['message'] as string;
}

/** A complete public webhook (interface.md 2.2) aimed at `url`. */
export function fullWebhook(url: string): Record<string, unknown> {
  return {
    url,
    httpMethod: 'POST',
    contentType: 'application/json',
    authentication: { type: 'BASIC', username: 'ops', password: 'hook-secret-1' },
    requestHeaders: { 'X-Tenant': 'acme' },
    deliveryPolicy: { timeout: 4000, maxRetries: 2, retryDelay: 5 },
  };
}
