import type { MessageRequest } from '../domain/message-request.js';

/**
 * Hands a message to the notifier (a Kafka message request). Resolves once the request is durable;
 * rejects otherwise. Implementations must not log `params` (they carry one-time links and codes).
 */
export interface MessagePublisher {
  publish(request: MessageRequest): Promise<void>;
}
