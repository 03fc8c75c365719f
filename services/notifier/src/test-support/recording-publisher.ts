import type { alarmV1, notificationV1 } from '@stormhook/proto';
import type { NotifierEventPublisher } from '../ports/event-publisher.js';

/** A fake of our publisher port that keeps what was published. */
export class RecordingPublisher implements NotifierEventPublisher {
  readonly failures: alarmV1.DeliveryFailed[] = [];
  readonly messages: notificationV1.MessageRequested[] = [];

  async deliveryFailed(event: alarmV1.DeliveryFailed): Promise<void> {
    this.failures.push(event);
  }

  async messageRequested(message: notificationV1.MessageRequested): Promise<void> {
    this.messages.push(message);
  }
}
