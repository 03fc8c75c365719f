import { publishOn, TopicNames, type Publisher } from '@stormhook/kafka';
import { alarmV1, enumValue } from '@stormhook/proto';
import type { AlarmPublisher } from '../ports/alarm-publisher.js';
import type { Notification } from '../payloads/notification.js';

/** The AlarmTriggered message of one notification. */
export function alarmTriggered(notification: Notification, triggeredAtMs: number): alarmV1.AlarmTriggered {
  return alarmV1.AlarmTriggered.create({
    notificationId: notification.notificationId,
    accountId: notification.addressee.accountId,
    registrationId: notification.addressee.registrationId,
    registrationKind: enumValue(alarmV1.RegistrationKind, notification.addressee.kind),
    recipientId: notification.addressee.recipientId,
    eventKind: enumValue(alarmV1.AlarmEventKind, notification.eventKind),
    phase: enumValue(alarmV1.AlarmPhase, notification.phase),
    eventId: notification.eventId,
    occurredAtEpochMs: notification.occurredAtMs,
    triggeredAtEpochMs: triggeredAtMs,
    payloadJson: JSON.stringify(notification.payload),
    // Every payload's top-level "id" is the notification id, which receivers echo in their acknowledgement.
    acknowledgementId: notification.notificationId,
  });
}

/**
 * Publishes on alarm.triggered.v1, keyed by registration id (one registration's notifications stay
 * in order), with the notification id as the event id so a re-publish carries the same id.
 */
export class KafkaAlarmPublisher implements AlarmPublisher {
  constructor(private readonly publisher: Publisher) {}

  async publish(notifications: readonly Notification[], triggeredAtMs: number): Promise<void> {
    if (notifications.length === 0) return;
    await publishOn(
      this.publisher,
      TopicNames.AlarmTriggered,
      notifications.map((n) => ({ key: n.addressee.registrationId, message: alarmTriggered(n, triggeredAtMs), eventId: n.notificationId })),
    );
  }
}
