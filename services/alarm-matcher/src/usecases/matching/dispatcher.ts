import type { AlarmPublisher } from '../../ports/alarm-publisher.js';
import type { Clock } from '../../ports/clock.js';
import type { NotificationLedger } from '../../ports/notification-ledger.js';
import type { Notification } from '../../payloads/notification.js';

/**
 * Claims, publishes and records notifications. A notification already published (a replay, another
 * instance) is dropped; a failed publish releases the claims and rethrows, so the record is retried
 * and claims again.
 */
export class NotificationDispatcher {
  constructor(
    private readonly ledger: NotificationLedger,
    private readonly publisher: AlarmPublisher,
    private readonly clock: Clock,
  ) {}

  /** Resolves with the notifications actually published. */
  async dispatch(notifications: readonly Notification[]): Promise<Notification[]> {
    if (notifications.length === 0) return [];
    // One notification per id even when a batch repeats one (a registration matched twice).
    const unique = [...new Map(notifications.map((n) => [n.notificationId, n])).values()];
    const now = this.clock.now();
    const toSend = new Set(
      await this.ledger.claim(
        unique.map((n) => ({ notificationId: n.notificationId, registrationId: n.addressee.registrationId, eventId: n.eventId, stage: n.stage })),
        now,
      ),
    );
    const selected = unique.filter((n) => toSend.has(n.notificationId));
    if (selected.length === 0) return [];
    const ids = selected.map((n) => n.notificationId);
    try {
      await this.publisher.publish(selected, now);
    } catch (error) {
      await this.ledger.release(ids).catch(() => undefined);
      throw error;
    }
    await this.ledger.markPublished(ids, this.clock.now());
    return selected;
  }
}
