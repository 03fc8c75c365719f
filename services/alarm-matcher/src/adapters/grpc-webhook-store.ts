import { GrpcError, GrpcStatus, type GrpcClient } from '@stormhook/grpc';
import type { notificationV1 } from '@stormhook/proto';
import type { CallBudget } from '../ports/call-budget.js';
import { DependencyUnavailableError } from '../ports/dependency.js';
import type { CreateWebhookOutcome, WebhookConfig, WebhookStore } from '../ports/webhook-store.js';
import { withinBudget } from './call-deadline.js';

export type NotifierClient = Pick<GrpcClient<typeof notificationV1.NotifierService>, 'getWebhookEndpoint' | 'createWebhookEndpoint'>;

/** The account's stored webhook, kept by the notifier (stormhook.notification.v1.NotifierService). */
export class GrpcWebhookStore implements WebhookStore {
  constructor(private readonly client: NotifierClient) {}

  private unavailable(what: string, error: unknown): DependencyUnavailableError {
    return new DependencyUnavailableError('notifier', `notifier did not answer ${what}: ${(error as Error).message}`, { cause: error });
  }

  async get(accountId: string, budget?: CallBudget): Promise<WebhookConfig | undefined> {
    try {
      const answer = await this.client.getWebhookEndpoint({ accountId }, withinBudget(budget));
      return answer.endpoint?.config ?? undefined;
    } catch (error) {
      if (error instanceof GrpcError && error.code === GrpcStatus.NOT_FOUND) return undefined;
      throw this.unavailable('GetWebhookEndpoint', error);
    }
  }

  async create(accountId: string, config: WebhookConfig, budget?: CallBudget): Promise<CreateWebhookOutcome> {
    try {
      const answer = await this.client.createWebhookEndpoint({ accountId, config, ownerEmail: '' }, withinBudget(budget));
      const stored = answer.endpoint?.config;
      if (!stored) throw new Error('CreateWebhookEndpoint answered without an endpoint');
      return { kind: 'created', config: stored };
    } catch (error) {
      if (error instanceof GrpcError && error.code === GrpcStatus.ALREADY_EXISTS) return { kind: 'exists' };
      if (error instanceof GrpcError && error.code === GrpcStatus.INVALID_ARGUMENT) {
        return { kind: 'invalid', field: error.detail?.metadata['field'] ?? 'webhook', message: error.detail?.message || error.message };
      }
      throw this.unavailable('CreateWebhookEndpoint', error);
    }
  }
}
