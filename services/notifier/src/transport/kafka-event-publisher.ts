import { publishOn, TopicNames, type Publisher } from '@stormhook/kafka';
import type { alarmV1, notificationV1 } from '@stormhook/proto';
import type { NotifierEventPublisher } from '../ports/event-publisher.js';

/** The notifier's events on their catalogue topics; keyed by account (failures) and recipient (messages). */
export class KafkaNotifierEventPublisher implements NotifierEventPublisher {
  constructor(private readonly publisher: Publisher) {}

  async deliveryFailed(event: alarmV1.DeliveryFailed): Promise<void> {
    await publishOn(this.publisher, TopicNames.DeliveryFailed, [{ key: event.accountId, message: event, eventId: `evt_df_${event.notificationId}` }]);
  }

  async messageRequested(message: notificationV1.MessageRequested): Promise<void> {
    await publishOn(this.publisher, TopicNames.MessageRequested, [{ key: message.recipient, message, eventId: `evt_${message.messageId}` }]);
  }
}
