import * as gateway from '@stormhook/gateway';
import { createClient, type GrpcClient, testInternalTokens, tokenOfRequestPrincipal } from '@stormhook/grpc';
import * as identity from '@stormhook/identity';
import { createLogger } from '@stormhook/logger';
import * as notifier from '@stormhook/notifier';
import { notificationV1 } from '@stormhook/proto';
import { ApiSession, type Answer, type SessionUser } from '../support/api-session.js';
import { identityTestEnv, notifierTestEnv, testEnv } from '../support/test-env.js';

export { ADMIN, type Answer } from '../support/api-session.js';
export type TestUser = SessionUser;

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
  const { env, track, stopAll: stopServices } = testEnv('whk');
  const logger = createLogger({ service: 'webhooks-it', level: process.env['LOG_LEVEL'] ?? 'silent' });
  let notifierClient: NotifierClient | undefined;
  const stopAll = async () => {
    notifierClient?.close();
    await stopServices();
  };
  try {
    const identityService = track(
      await identity.start(identity.loadConfig({ ...env, ...identityTestEnv() }), {
        logger: logger.child({ service: 'identity' }),
        geo: { resolve: async () => undefined },
      }),
    );
    const notifierService = track(
      await notifier.start(notifier.loadConfig({ ...env, ...notifierTestEnv() }), { logger: logger.child({ service: 'notifier' }) }),
    );
    const notifierAddress = `127.0.0.1:${notifierService.port}`;
    notifierClient = createClient(notificationV1.NotifierService, notifierAddress, {
      deadlineMs: 10_000,
      internalToken: tokenOfRequestPrincipal(testInternalTokens(), 'notifier'),
    });
    const running = track(
      await gateway.start(
        gateway.loadConfig({
          ...env,
          HTTP_HOST: '127.0.0.1',
          HTTP_PORT: '0',
          IDENTITY_GRPC_ADDRESS: `127.0.0.1:${identityService.port}`,
          NOTIFIER_GRPC_ADDRESS: notifierAddress,
        }),
        { logger: logger.child({ service: 'gateway' }) },
      ),
    );
    const session = new ApiSession(`http://127.0.0.1:${running.port}`, 'whk');
    const client = notifierClient;
    // Only the alarm-matcher creates endpoints (packages/grpc GRPC_RPC_CALLERS): the test plays it.
    const matcherTokens = testInternalTokens('alarm-matcher');
    const creator = createClient(notificationV1.NotifierService, notifierAddress, {
      deadlineMs: 10_000,
      internalToken: () => matcherTokens.forService('notifier'),
    });
    track({ stop: async () => creator.close() });
    const createWebhook: WebhookStack['createWebhook'] = async (accountId, webhook) => {
      const config = gateway.toEndpointConfig(webhook);
      if (!config.ok) throw new Error(config.message);
      return creator.createWebhookEndpoint({ accountId, config: config.value, ownerEmail: '' });
    };
    return {
      baseUrl: session.baseUrl,
      notifier: client,
      call: (method, path, options) => session.call(method, path, options),
      adminToken: () => session.adminToken(),
      user: (role, plan) => session.user(role, plan),
      createWebhook,
      stop: stopAll,
    };
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
  if (typeof b['timestamp'] !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}$/.test(b['timestamp']))
    problems.push(`timestamp ${String(b['timestamp'])}`);
  if (problems.length > 0) throw new Error(`not the expected ErrorResponse: ${problems.join('; ')}`);
  return b['message'] as string;
}
