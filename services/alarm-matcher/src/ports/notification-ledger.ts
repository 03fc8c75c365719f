/**
 * Which notifications were made. Claims are unique inserts keyed by notification id (FerretDB
 * updates are not atomic under concurrency; unique inserts are), so two instances or a replay
 * cannot both decide to send one. A claim that never got to 'published' (a crash between claim and
 * publish) is handed out again once stale: the notifier de-duplicates on the id, so at-least-once is safe.
 */
export interface NotificationClaim {
  notificationId: string;
  registrationId: string;
  eventId: string;
  stage: string;
}

export interface NotificationLedger {
  /** The ids among `claims` to publish now: newly claimed, or claimed long ago and never published. */
  claim(claims: readonly NotificationClaim[], nowMs: number): Promise<string[]>;
  markPublished(notificationIds: readonly string[], nowMs: number): Promise<void>;
  /** Drops claims made by a call whose publish failed, so a retry claims them again. */
  release(notificationIds: readonly string[]): Promise<void>;
  isPublished(notificationId: string): Promise<boolean>;
}
