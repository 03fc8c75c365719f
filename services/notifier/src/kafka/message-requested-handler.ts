import { EventTypes, Outcomes, type ConsumedRecord, type Handler } from '@stormhook/kafka';
import type { Logger } from '@stormhook/logger';
import { notificationV1 } from '@stormhook/proto';
import type { SendMessage } from '../usecases/send-message.js';

/**
 * Consumer handler for notification.message-requested.v1. A request that can never be sent (bad
 * channel, address or text) is dead-lettered with the reason; a provider outage is retried by the
 * consumer (and, past its attempts, stops it loudly rather than dropping an activation code).
 */
export function messageRequestedHandler(send: SendMessage, logger: Logger): Handler {
  return async (record: ConsumedRecord) => {
    if (record.headers.eventType !== EventTypes.MessageRequested) return Outcomes.deadLetter(`unexpected event type ${record.headers.eventType}`);
    let request: notificationV1.MessageRequested;
    try {
      request = notificationV1.MessageRequested.decode(record.value);
    } catch (error) {
      return Outcomes.deadLetter(`undecodable MessageRequested: ${(error as Error).message}`);
    }
    try {
      const result = await send.execute(request);
      switch (result.kind) {
        case 'sent':
        case 'duplicate':
          return Outcomes.ok();
        case 'rejected':
          return Outcomes.deadLetter(result.reason);
        case 'retry':
          logger.warn({ messageId: request.messageId, reason: result.reason }, 'message provider failed; retrying');
          return Outcomes.retry(result.reason);
      }
    } catch (error) {
      return Outcomes.retry(`message ${request.messageId}: ${(error as Error).message}`);
    }
  };
}
