import { createGrpcServer, GrpcError, GrpcStatus, type GrpcServer, type HandlersOf } from '@stormhook/grpc';
import type { Logger } from '@stormhook/logger';
import { commonV1, notificationV1 } from '@stormhook/proto';

/**
 * A stand-in for the notifier's webhook endpoint rpcs (one stored webhook per account), over real
 * gRPC. It applies the notifier's defaults (POST, JSON, 5000/3/10 delivery policy) and masks
 * passwords like the notifier does, and refuses a non-https url with INVALID_ARGUMENT naming the
 * field, so the matcher's handling of the notifier's answers is exercised end to end.
 */
export interface FakeNotifier {
  address: string;
  /** Stored configurations by account, unmasked. */
  endpoints: Map<string, notificationV1.WebhookEndpointConfig>;
  /** How long each webhook rpc takes before it answers (a notifier under load); 0 by default. */
  delayMs: number;
  stop(): Promise<void>;
}

function masked(config: notificationV1.WebhookEndpointConfig): notificationV1.WebhookEndpointConfig {
  const auth = config.authentication;
  return { ...config, ...(auth ? { authentication: { ...auth, password: auth.password ? '******' : '' } } : {}) };
}

function withDefaults(config: notificationV1.WebhookEndpointConfig): notificationV1.WebhookEndpointConfig {
  const policy = config.deliveryPolicy;
  return notificationV1.WebhookEndpointConfig.create({
    ...config,
    httpMethod: config.httpMethod || 'POST',
    contentType: config.contentType || 'application/json',
    authentication: config.authentication ?? { type: 'WEBHOOK_AUTH_TYPE_NONE' },
    deliveryPolicy: {
      timeoutMs: policy?.timeoutMs || 5_000,
      maxRetries: policy ? policy.maxRetries : 3,
      retryDelaySeconds: policy?.retryDelaySeconds || 10,
    },
  });
}

function endpointOf(accountId: string, config: notificationV1.WebhookEndpointConfig): notificationV1.WebhookEndpoint {
  return notificationV1.WebhookEndpoint.create({
    endpointId: `ep_${accountId.slice(0, 8)}`,
    accountId,
    config: masked(config),
    status: 'WEBHOOK_ENDPOINT_STATUS_ENABLED',
  });
}

function unimplemented(): never {
  throw new GrpcError(GrpcStatus.UNIMPLEMENTED, 'not in the fake notifier');
}

export async function startFakeNotifier(logger: Logger): Promise<FakeNotifier> {
  const server: GrpcServer = createGrpcServer({ logger, serviceName: 'fake-notifier', shutdownTimeoutMs: 500, internalTokens: 'unauthenticated' });
  const endpoints = new Map<string, notificationV1.WebhookEndpointConfig>();
  const fake = { delayMs: 0 };
  const slow = () => (fake.delayMs > 0 ? new Promise((resolve) => setTimeout(resolve, fake.delayMs)) : Promise.resolve());
  const handlers: HandlersOf<typeof notificationV1.NotifierService> = {
    async createWebhookEndpoint(request) {
      await slow();
      if (endpoints.has(request.accountId)) throw new GrpcError(GrpcStatus.ALREADY_EXISTS, 'the account has a webhook endpoint');
      const config = request.config;
      if (!config?.url.startsWith('https://')) {
        const message = 'webhook.url must be an https URL';
        throw new GrpcError(
          GrpcStatus.INVALID_ARGUMENT,
          message,
          commonV1.ErrorDetail.create({ reason: 'VALIDATION_FAILED', message, metadata: { field: 'webhook.url' } }),
        );
      }
      const stored = withDefaults(config);
      endpoints.set(request.accountId, stored);
      return { endpoint: endpointOf(request.accountId, stored), signingSecret: 'whsec_fake' };
    },
    async getWebhookEndpoint(request) {
      await slow();
      const stored = endpoints.get(request.accountId);
      if (!stored) throw new GrpcError(GrpcStatus.NOT_FOUND, 'no webhook endpoint');
      return { endpoint: endpointOf(request.accountId, stored) };
    },
    updateWebhookEndpoint: async () => unimplemented(),
    rotateSigningSecret: async () => unimplemented(),
    getSigningSecret: async () => unimplemented(),
    enableWebhookEndpoint: async () => unimplemented(),
    listDeliveries: async () => unimplemented(),
    getDelivery: async () => unimplemented(),
    redeliver: async () => unimplemented(),
    sendTestDelivery: async () => unimplemented(),
    getWebhookHealth: async () => unimplemented(),
    recoverDeliveries: async () => unimplemented(),
    getRecoveryJob: async () => unimplemented(),
  };
  server.add(notificationV1.NotifierService, handlers);
  const port = await server.listen('127.0.0.1:0');
  return Object.assign(fake, { address: `127.0.0.1:${port}`, endpoints, stop: () => server.shutdown() });
}
