import { publishOn, TopicNames, type Publisher } from '@stormhook/kafka';
import type { Logger } from '@stormhook/logger';
import type { AccessChange, AccessChangePublisher } from '../ports/access-changes.js';
import type { Clock } from '../ports/clock.js';

/**
 * Publishes stormhook.identity.v1.UserChanged on identity.user-changed.v1, keyed by user so one
 * user's changes stay in order. Awaited (acks from all in-sync replicas) so that when the rpc that
 * made the change answers, the gateways can already see it; a failure is logged loudly and swallowed
 * (see {@link AccessChangePublisher}).
 */
export class KafkaAccessChangePublisher implements AccessChangePublisher {
  constructor(
    private readonly publisher: Pick<Publisher, 'publish'>,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async changed(userId: string, change: AccessChange, apiKeyId?: string): Promise<void> {
    const message = { userId, change, apiKeyId: apiKeyId ?? '', changedAtEpochMs: this.clock.now().getTime() };
    try {
      await publishOn(this.publisher, TopicNames.UserChanged, [{ key: userId, message }]);
    } catch (error) {
      this.logger.error(
        { err: error, userId, change, ...(apiKeyId ? { apiKeyId } : {}) },
        'user change not published: gateways keep the old access state until their snapshot expires (GATEWAY_ACCESS_SNAPSHOT_TTL_MS)',
      );
    }
  }
}
