import { EventTypes, type Publisher } from '@stormhook/kafka';
import { alarmV1, notificationV1 } from '@stormhook/proto';
import type { NotifierEventPublisher } from '../ports/event-publisher.js';

/** The notifier's events on their catalogue topics; keyed by account (failures) and recipient (messages). */
export class KafkaNotifierEventPublisher implements NotifierEventPublisher {
  constructor(private readonly publisher: Publisher) {}

  async deliveryFailed(event: alarmV1.DeliveryFailed): Promise<void> {
    await this.publisher.publish('alarm.delivery-failed.v1', [
      { key: event.accountId, value: alarmV1.DeliveryFailed.encode(event), eventType: EventTypes.DeliveryFailed, eventId: `evt_df_${event.notificationId}` },
    ]);
  }

  async messageRequested(message: notificationV1.MessageRequested): Promise<void> {
    await this.publisher.publish('notification.message-requested.v1', [
      { key: message.recipient, value: notificationV1.MessageRequested.encode(message), eventType: EventTypes.MessageRequested, eventId: `evt_${message.messageId}` },
    ]);
  }
}
