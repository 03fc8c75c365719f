import type { Logger } from '@stormhook/logger';
import { notificationV1 } from '@stormhook/proto';
import type { WebhookEndpoint } from '../domain/endpoint.js';
import { newId } from '../domain/ids.js';
import type { Clock } from '../ports/clock.js';
import type { EndpointRepository } from '../ports/endpoint-repository.js';
import type { NotifierEventPublisher } from '../ports/event-publisher.js';
import type { EndpointCache } from './endpoint-cache.js';

export interface EndpointHealthDeps {
  repository: EndpointRepository;
  cache: EndpointCache;
  publisher: NotifierEventPublisher;
  clock: Clock;
  logger: Logger;
  /** An endpoint failing without a single success for this long is disabled (Svix: 5 days). */
  autoDisableAfterMs: number;
}

/**
 * Tracks unbroken failure runs per endpoint and disables endpoints that fail for too long, or at once
 * on 410 Gone, telling the owner by e-mail. It writes only when the state changes (start of a run, end
 * of a run, disable), never per attempt, so a busy endpoint costs no extra database writes.
 */
export class EndpointHealth {
  constructor(private readonly deps: EndpointHealthDeps) {}

  async onSuccess(endpoint: WebhookEndpoint): Promise<void> {
    if (endpoint.failingSince === null) return;
    await this.deps.repository.setFailingSince(endpoint.id, null);
    this.deps.cache.put({ ...endpoint, failingSince: null });
  }

  async onFailure(endpoint: WebhookEndpoint, gone: boolean): Promise<void> {
    const now = this.deps.clock.now();
    if (gone) return this.disable(endpoint, 'the endpoint answered 410 Gone', now);
    if (endpoint.failingSince === null) {
      await this.deps.repository.setFailingSince(endpoint.id, now);
      this.deps.cache.put({ ...endpoint, failingSince: now });
      return;
    }
    if (now.getTime() - endpoint.failingSince.getTime() >= this.deps.autoDisableAfterMs) {
      await this.disable(endpoint, `every delivery failed since ${endpoint.failingSince.toISOString()}`, now);
    }
  }

  private async disable(endpoint: WebhookEndpoint, reason: string, now: Date): Promise<void> {
    const changed = await this.deps.repository.disable(endpoint.id, reason, now);
    this.deps.cache.invalidate(endpoint.id);
    if (!changed) return; // another instance disabled it and told the owner
    this.deps.logger.warn({ endpointId: endpoint.id, accountId: endpoint.accountId, reason }, 'webhook endpoint disabled');
    if (!endpoint.ownerEmail) return;
    try {
      await this.deps.publisher.messageRequested(
        notificationV1.MessageRequested.create({
          messageId: newId('msg'),
          channel: 'MESSAGE_CHANNEL_EMAIL',
          recipient: endpoint.ownerEmail,
          template: 'MESSAGE_TEMPLATE_ENDPOINT_DISABLED',
          locale: 'en_US',
          params: { url: endpoint.url, reason, disabledAt: now.toISOString() },
          accountId: endpoint.accountId,
          requestedAtEpochMs: now.getTime(),
        }),
      );
    } catch (error) {
      // The endpoint is disabled either way; the notice is best effort and the log says it was lost.
      this.deps.logger.error({ err: error, endpointId: endpoint.id }, 'could not request the endpoint-disabled e-mail');
    }
  }
}
