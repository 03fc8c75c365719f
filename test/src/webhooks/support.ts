import { generateKeyPairSync, randomBytes } from 'node:crypto';
import * as gateway from '@stormhook/gateway';
import { createClient, type GrpcClient } from '@stormhook/grpc';
import * as identity from '@stormhook/identity';
import { createLogger } from '@stormhook/logger';
import * as notifier from '@stormhook/notifier';
import { notificationV1 } from '@stormhook/proto';
import { testInfra, uniqueName } from '@stormhook/testing';
import { dropPrefixedDatabases } from '../support/databases.js';
import { deletePrefixedTopics } from '../support/topics.js';

export const ADMIN = { username: 'admin@stormhook.test', password: 'admin-password-1' };

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, any>;
}

export interface TestUser {
  userId: string;
  username: string;
  token: string;
  accountId?: string;
}

export type NotifierClient = GrpcClient<typeof notificationV1.NotifierService>;

export interface WebhookStack {
  baseUrl: string;
  /** A direct gRPC client of the notifier, for what the gateway does not offer (creating an endpoint). */
  notifier: NotifierClient;
  call(method: string, path: string, options?: { body?: unknown; token?: string }): Promise<Answer>;
  adminToken(): Promise<string>;
  /** An ACTIVE user with `role`; with `plan` an account on that plan (the token then names it). */
  user(role: string, plan?: string): Promise<TestUser>;
  /** Stores the account's webhook as the first alarm registration would: the gateway's mapping, then CreateWebhookEndpoint. */
  createWebhook(accountId: string, webhook: gateway.PublicWebhookInput): Promise<notificationV1.CreateWebhookEndpointResponse>;
  stop(): Promise<void>;
}

/**
 * identity, the notifier and a gateway in this process on port 0, against the real Kafka and
 * database, under a fresh database and topic prefix. The notifier may call 127.0.0.1 (the SSRF
 * allow-list), so a local receiver can take the callbacks. Geography is not needed here: identity
 * gets a resolver that knows no place instead of the geo service.
 */
export async function startWebhookStack(): Promise<WebhookStack> {
  const infra = testInfra();
  const dbPrefix = uniqueName('whk').replace(/-/g, '_');
  const topicPrefix = uniqueName('whk');
  const logger = createLogger({ service: 'webhooks-it', level: process.env['LOG_LEVEL'] ?? 'silent' });
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
  let notifierClient: NotifierClient | undefined;
  const stopAll = async () => {
    notifierClient?.close();
    for (const s of started.reverse()) await s.stop().catch(() => undefined);
    await deletePrefixedTopics(infra.kafkaBrokers, topicPrefix).catch(() => undefined);
    await dropPrefixedDatabases(infra.mongoUrl, dbPrefix).catch(() => undefined);
  };
  try {
    const { privateKey } = generateKeyPairSync('ed25519');
    const identityService = await identity.start(
      identity.loadConfig({
        ...env,
        STORMHOOK_ADMIN_EMAIL: ADMIN.username,
        STORMHOOK_ADMIN_PASSWORD: ADMIN.password,
        IDENTITY_JWT_PRIVATE_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
        IDENTITY_PASSWORD_HASH_COST: '10',
      }),
      { logger: logger.child({ service: 'identity' }), geo: { resolve: async () => undefined } },
    );
    started.push(identityService);
    const notifierService = await notifier.start(
      notifier.loadConfig({
        ...env,
        CREDENTIAL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        NOTIFIER_SSRF_ALLOW_CIDRS: '127.0.0.1/32',
        NOTIFIER_POLL_INTERVAL_MS: '50',
      }),
      { logger: logger.child({ service: 'notifier' }) },
    );
    started.push(notifierService);
    const notifierAddress = `127.0.0.1:${notifierService.port}`;
    notifierClient = createClient(notificationV1.NotifierService, notifierAddress, { deadlineMs: 10_000 });
    const running = await gateway.start(
      gateway.loadConfig({
        ...env,
        HTTP_HOST: '127.0.0.1',
        HTTP_PORT: '0',
        IDENTITY_GRPC_ADDRESS: `127.0.0.1:${identityService.port}`,
        NOTIFIER_GRPC_ADDRESS: notifierAddress,
      }),
      { logger: logger.child({ service: 'gateway' }) },
    );
    started.push(running);
    const baseUrl = `http://127.0.0.1:${running.port}`;

    const call: WebhookStack['call'] = async (method, path, options = {}) => {
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
    const user: WebhookStack['user'] = async (role, plan) => {
      const n = ++counter;
      const username = `whk-${role.toLowerCase().replace(/_/g, '-')}-${n}-${Date.now().toString(36)}@example.com`;
      const password = `password-${n}-secret`;
      const token = await adminToken();
      const created = await call('POST', '/v1/users/create', { token, body: { username, firstName: 'Hook', lastName: `User ${n}`, role, password } });
      if (created.status !== 201) throw new Error(`cannot create user: ${created.status} ${JSON.stringify(created.body)}`);
      const userId = String(created.body['userId']);
      let accountId: string | undefined;
      if (plan) {
        const account = await call('POST', '/v1/accounts/create', { token, body: { userId, type: 'ORGANIZATION', subscriptionPlan: plan } });
        if (account.status !== 200) throw new Error(`cannot create account: ${account.status} ${JSON.stringify(account.body)}`);
        accountId = String(account.body['id']);
      }
      return { userId, username, token: await login(username, password), ...(accountId ? { accountId } : {}) };
    };
    const client = notifierClient;
    const createWebhook: WebhookStack['createWebhook'] = async (accountId, webhook) => {
      const config = gateway.toEndpointConfig(webhook);
      if (!config.ok) throw new Error(config.message);
      return client.createWebhookEndpoint({ accountId, config: config.value, ownerEmail: '' });
    };
    return { baseUrl, notifier: client, call, adminToken, user, createWebhook, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

export { eventually, Receiver, type ReceivedCallback } from '../support/receiver.js';

/** Asserts the ErrorResponse shape of interface.md 2.1 and returns its message. */
export function errorMessage(answer: Answer, status: number, path: string): string {
  const b = answer.body;
  const problems: string[] = [];
  if (answer.status !== status) problems.push(`status ${answer.status}, expected ${status}: ${JSON.stringify(b)}`);
  if (b['status'] !== status) problems.push(`body.status ${String(b['status'])}`);
  if (typeof b['error'] !== 'string' || b['error'] === '') problems.push('error missing');
  if (typeof b['message'] !== 'string' || b['message'] === '') problems.push('message missing');
  if (b['path'] !== path) problems.push(`path ${String(b['path'])}, expected ${path}`);
  if (typeof b['timestamp'] !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}$/.test(b['timestamp'])) problems.push(`timestamp ${String(b['timestamp'])}`);
  if (problems.length > 0) throw new Error(`not the expected ErrorResponse: ${problems.join('; ')}`);
  return b['message'] as string;
}
