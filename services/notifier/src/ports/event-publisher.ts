import type { alarmV1, notificationV1 } from '@stormhook/proto';

/** Publishes the notifier's events; resolves once the broker has them durably, rejects otherwise. */
export interface NotifierEventPublisher {
  deliveryFailed(event: alarmV1.DeliveryFailed): Promise<void>;
  messageRequested(message: notificationV1.MessageRequested): Promise<void>;
}
