import type { Notification } from '../payloads/notification.js';

/** Hands notifications to the notifier (alarm.triggered.v1); resolves once the broker has them. */
export interface AlarmPublisher {
  publish(notifications: readonly Notification[], triggeredAtMs: number): Promise<void>;
}
