import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { Consumer } from 'kafkajs';
import * as gateway from '@stormhook/gateway';
import type { GatewayStartOptions, RunningGateway } from '@stormhook/gateway';
import * as geo from '@stormhook/geo';
import * as identity from '@stormhook/identity';
import { MESSAGE_KEY_VARIABLE } from '@stormhook/grpc';
import { createKafkaClient, messageOpeningKey, openParams, TopicNames } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { notificationV1 } from '@stormhook/proto';
import type { RunningGrpcService } from '@stormhook/service-kit';
import { testInfra, uniqueName } from '@stormhook/testing';

import { ADMIN } from '../support/api-session.js';
import { testEnv } from '../support/test-env.js';

export { ADMIN };
export const LINK_ORIGIN = 'https://app.stormhook.test';
export const NIL_UUID = '00000000-0000-4000-8000-000000000000';

/** Places the real geo service resolves: central Ankara and İstanbul (TUR), Lefkoşa (CTR). */
export const PLACES = {
  ankara: { lat: 39.92, lng: 32.85 },
  istanbul: { lat: 41.01, lng: 28.97 },
  lefkosa: { lat: 35.18, lng: 33.36 },
} as const;

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/**
 * The messages identity requested from the notifier, read back from the real Kafka topic. The test
 * plays the notifier: it opens the sealed values with the run's notifier key, as the notifier does,
 * and keeps each record's raw bytes so a test can check what a mere reader of the topic sees.
 */
export class Mailbox {
  readonly messages: notificationV1.MessageRequested[] = [];
  readonly rawRecords: Buffer[] = [];

  constructor(private readonly notifierKey: KeyObject) {}

  receive(value: Buffer): void {
    this.rawRecords.push(value);
    const request = notificationV1.MessageRequested.decode(value);
    const opened = request.sealedParams.length > 0 ? openParams(request.sealedParams, this.notifierKey, request.messageId) : undefined;
    if (opened && !opened.ok) throw new Error(`a message request does not open with the notifier's key: ${opened.reason}`);
    this.messages.push(opened ? { ...request, params: { ...request.params, ...opened.params } } : request);
  }

  /** Waits for the newest message to `recipient` matching `template`. */
  async next(recipient: string, template: notificationV1.MessageTemplate, after = 0): Promise<notificationV1.MessageRequested> {
    for (let i = 0; i < 100; i++) {
      const found = this.messages.filter((m) => m.recipient === recipient && m.template === template);
      const last = found[found.length - 1];
      if (found.length > after && last) return last;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no ${template} message to ${recipient} arrived`);
  }

  count(recipient: string, template: notificationV1.MessageTemplate): number {
    return this.messages.filter((m) => m.recipient === recipient && m.template === template).length;
  }
}

export interface IdentityStack {
  baseUrl: string;
  gateways: RunningGateway[];
  identity: RunningGrpcService;
  mailbox: Mailbox;
  /** The key identity signs with, so tests can forge tokens (expired ones, other audiences...). */
  signingKey: KeyObject;
  kid: string;
  dbPrefix: string;
  /** Starts one more gateway over the same databases and identity (a second instance, or a restart). */
  startGateway(): Promise<RunningGateway>;
  stopGateway(g: RunningGateway): Promise<void>;
  call(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string; apiKey?: string; headers?: Record<string, string>; baseUrl?: string },
  ): Promise<Answer>;
  login(username: string, password: string): Promise<{ accessToken: string; refreshToken: string }>;
  adminToken(): Promise<string>;
  /** An ACTIVE user with a password (and, with `plan`, an account on that plan): its id, token and account. */
  user(role: string, plan?: string): Promise<{ userId: string; username: string; password: string; token: string; accountId?: string }>;
  stop(): Promise<void>;
}

/**
 * identity, geo and a gateway in this process on port 0, against the real Kafka and database, in a
 * fresh database prefix and topic prefix. Geographic checks go through the real geo service (its
 * boundary data); identity signs with a key the test knows.
 * Operations whose backing service is not started answer through `handlers` stand-ins.
 */
export interface IdentityStackOptions {
  /** Variables added to (or replacing) the gateway's, e.g. its cache expiries. */
  gatewayEnv?: Record<string, string>;
  /** Variables added to (or replacing) identity's, e.g. a MONGO_URL with command monitoring on. */
  identityEnv?: Record<string, string>;
}

export async function startIdentityStack(handlers: GatewayStartOptions['handlers'] = {}, options: IdentityStackOptions = {}): Promise<IdentityStack> {
  const infra = testInfra();
  const { env, dbPrefix, topicPrefix, stopAll: cleanUp } = testEnv('idt');
  const logger = createLogger({ service: 'test', level: process.env['LOG_LEVEL'] ?? 'silent' });
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const started: Array<{ stop(): Promise<void> }> = [];
  const kafka = createKafkaClient({ brokers: infra.kafkaBrokers, credentials: infra.kafkaCredentials, clientId: 'identity-it', logger });
  let consumer: Consumer | undefined;
  const stopAll = async () => {
    await consumer?.disconnect();
    for (const s of started.reverse()) await s.stop().catch(() => undefined);
    await cleanUp();
  };
  try {
    const geoService = await geo.start(geo.loadConfig(env), { logger: logger.child({ service: 'geo' }) });
    started.push(geoService);
    const identityService = await identity.start(
      identity.loadConfig({
        ...env,
        STORMHOOK_ADMIN_EMAIL: ADMIN.username,
        STORMHOOK_ADMIN_PASSWORD: ADMIN.password,
        IDENTITY_JWT_PRIVATE_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
        IDENTITY_PASSWORD_HASH_MEMORY_KIB: '1024',
        STORMHOOK_ALLOWED_LINK_ORIGINS: LINK_ORIGIN,
        GEO_GRPC_ADDRESS: `127.0.0.1:${geoService.port}`,
        ...options.identityEnv,
      }),
      { logger: logger.child({ service: 'identity' }) },
    );
    started.push(identityService);

    const gatewayConfig = gateway.loadConfig({
      ...env,
      HTTP_HOST: '127.0.0.1',
      HTTP_PORT: '0',
      IDENTITY_GRPC_ADDRESS: `127.0.0.1:${identityService.port}`,
      GEO_GRPC_ADDRESS: `127.0.0.1:${geoService.port}`,
      // Short, so a test sees a revoked key refused without waiting the production 30 s.
      API_KEY_CACHE_TTL_MS: '300',
      ...options.gatewayEnv,
    });
    const gateways: RunningGateway[] = [];
    const startGateway = async () => {
      const g = await gateway.start(gatewayConfig, { logger: logger.child({ service: 'gateway' }), handlers });
      gateways.push(g);
      started.push({ stop: async () => (gateways.includes(g) ? g.stop() : undefined) });
      return g;
    };
    await startGateway();
    // The oldest running gateway: tests stop and start instances.
    const currentUrl = () => `http://127.0.0.1:${gateways[0]?.port ?? 0}`;

    const mailbox = new Mailbox(messageOpeningKey(infra.internalKeys[MESSAGE_KEY_VARIABLE] ?? ''));
    consumer = kafka.consumer({ groupId: uniqueName('identity-it-mail') });
    await consumer.connect();
    await consumer.subscribe({ topic: `${topicPrefix}.${TopicNames.MessageRequested}`, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        if (message.value) mailbox.receive(message.value);
      },
    });

    const call: IdentityStack['call'] = async (method, path, options = {}) => {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers['authorization'] = `Bearer ${options.token}`;
      if (options.apiKey) headers['x-api-key'] = options.apiKey;
      const init: RequestInit = { method, headers };
      if (options.body !== undefined) {
        headers['content-type'] = 'application/json';
        init.body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      }
      const response = await fetch(`${options.baseUrl ?? currentUrl()}${path}`, init);
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
    };
    const login = async (username: string, password: string) => {
      const answer = await call('POST', '/v1/auth/login', { body: { username, password } });
      if (answer.status !== 200) throw new Error(`login of ${username} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
      return { accessToken: String(answer.body['accessToken']), refreshToken: String(answer.body['refreshToken']) };
    };
    let adminAccess: string | undefined;
    const adminToken = async () => (adminAccess ??= (await login(ADMIN.username, ADMIN.password)).accessToken);
    let counter = 0;
    const user: IdentityStack['user'] = async (role, plan) => {
      const n = ++counter;
      const username = `${role.toLowerCase().replace(/_/g, '-')}-${n}-${Date.now().toString(36)}@example.com`;
      const password = `password-${n}-secret`;
      const token = await adminToken();
      const created = await call('POST', '/v1/users/create', { token, body: { username, firstName: 'Test', lastName: `User ${n}`, role, password } });
      if (created.status !== 201) throw new Error(`cannot create user: ${created.status} ${JSON.stringify(created.body)}`);
      const userId = String(created.body['userId']);
      let accountId: string | undefined;
      if (plan) {
        const account = await call('POST', '/v1/accounts/create', { token, body: { userId, type: 'ORGANIZATION', subscriptionPlan: plan } });
        if (account.status !== 200) throw new Error(`cannot create account: ${account.status} ${JSON.stringify(account.body)}`);
        accountId = String(account.body['id']);
      }
      const { accessToken } = await login(username, password);
      return { userId, username, password, token: accessToken, ...(accountId ? { accountId } : {}) };
    };
    return {
      get baseUrl() {
        return currentUrl();
      },
      gateways,
      identity: identityService,
      mailbox,
      signingKey: privateKey,
      kid: identity.keyIdOf(publicKey),
      dbPrefix,
      startGateway,
      async stopGateway(g) {
        const at = gateways.indexOf(g);
        if (at >= 0) gateways.splice(at, 1);
        await g.stop();
      },
      call,
      login,
      adminToken,
      user,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** A compact JWS over `header` and `claims`, signed with `key` (Ed25519) or left unsigned. */
export function forgeToken(header: Record<string, unknown>, claims: Record<string, unknown>, key?: KeyObject): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part(header)}.${part(claims)}`;
  const signature = key ? sign(null, Buffer.from(input), key).toString('base64url') : '';
  return `${input}.${signature}`;
}

/** The decoded claims of a token (no verification). */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

export const LOCAL_NANO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}$/;

/** Asserts the ErrorResponse shape of interface.md 2.1 and returns the body for further checks. */
export function errorBody(answer: Answer, status: number, path: string): { message: string; messages?: string[] } {
  const b = answer.body;
  const problems: string[] = [];
  if (answer.status !== status) problems.push(`status ${answer.status}, expected ${status}: ${JSON.stringify(b)}`);
  if (b['status'] !== status) problems.push(`body.status ${String(b['status'])}`);
  if (typeof b['error'] !== 'string' || (b['error'] as string).length === 0) problems.push('error missing');
  if (typeof b['message'] !== 'string' || (b['message'] as string).length === 0) problems.push('message missing');
  if (b['path'] !== path) problems.push(`path ${String(b['path'])}, expected ${path}`);
  if (typeof b['timestamp'] !== 'string' || !LOCAL_NANO_TIMESTAMP.test(b['timestamp'] as string)) problems.push(`timestamp ${String(b['timestamp'])}`);
  if (problems.length > 0) throw new Error(`not the expected ErrorResponse: ${problems.join('; ')}`);
  return { message: b['message'] as string, ...(Array.isArray(b['messages']) ? { messages: b['messages'] as string[] } : {}) };
}
