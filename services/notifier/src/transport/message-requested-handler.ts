import { Outcomes, type ChannelHandler, type TopicNames } from '@stormhook/kafka';
import type { Logger } from '@stormhook/logger';
import type { QueueMessage } from '../usecases/queue-message.js';

/**
 * Consumer handler for notification.message-requested.v1: queues the message in the durable outbox
 * (sending is the outbox worker's, outside the consumer's session). A request that can never be sent
 * (bad channel, address or text) is dead-lettered with the reason; a failed outbox write is retried.
 */
export function messageRequestedHandler(queue: QueueMessage, logger: Logger): ChannelHandler<typeof TopicNames.MessageRequested> {
  return async (record) => {
    const request = record.message;
    try {
      const result = await queue.execute(request);
      switch (result.kind) {
        case 'queued':
        case 'duplicate':
          return Outcomes.ok();
        case 'rejected':
          return Outcomes.deadLetter(result.reason);
      }
    } catch (error) {
      logger.warn({ messageId: request.messageId, err: error }, 'message could not be queued; retrying');
      return Outcomes.retry(`message ${request.messageId}: ${(error as Error).message}`);
    }
  };
}
