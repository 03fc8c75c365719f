/**
 * Which notifications were made. Claims are unique inserts keyed by notification id (FerretDB
 * updates are not atomic under concurrency; unique inserts are), so two instances or a replay
 * cannot both decide to send one. A claim that never got to 'published' (a crash between claim and
 * publish) is handed out again once stale: the notifier de-duplicates on the id, so at-least-once is safe.
 *
 * Claims are made in batches, each with an id of its own; once a batch is published one mark,
 * `markPublished([batchId])`, covers all its claims. Notifications sent outside their claim's
 * batch (taken over from an abandoned claim, or resent after a failed publish) are marked by
 * their own id.
 */
export interface NotificationClaim {
  notificationId: string;
  registrationId: string;
  eventId: string;
  stage: string;
}

export interface ClaimResult {
  /** Claimed by this call in batch `batchId`. */
  fresh: string[];
  /** Abandoned claims taken over by this call: they need a mark of their own once published. */
  retaken: string[];
}

export interface NotificationLedger {
  /** The ids among `claims` to publish now: newly claimed, or claimed long ago and never published. */
  claim(claims: readonly NotificationClaim[], nowMs: number, batchId: string): Promise<ClaimResult>;
  /** Records batches (by batch id) or single notifications (by notification id) as published. */
  markPublished(ids: readonly string[], nowMs: number): Promise<void>;
  /** Drops claims made by a call whose publish failed, so a retry claims them again. */
  release(notificationIds: readonly string[]): Promise<void>;
  isPublished(notificationId: string): Promise<boolean>;
}
