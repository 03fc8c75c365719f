import { randomBytes } from 'node:crypto';
import { MicroBatcher } from '@stormhook/batch';
import type { Logger } from '@stormhook/logger';
import type { AlarmPublisher } from '../../ports/alarm-publisher.js';
import type { Clock } from '../../ports/clock.js';
import type { ClaimResult, NotificationLedger } from '../../ports/notification-ledger.js';
import type { Notification } from '../../payloads/notification.js';
import type { RegistrationRef, Suspension } from '../entitlement/entitlement-book.js';

/** Whether a registration may deliver now (the EntitlementBook); absent: every registration may. */
export interface DeliveryGate {
  suspension(registration: RegistrationRef): Suspension | undefined;
}

/** Bounds of the batches the dispatcher forms out of concurrent callers. */
export interface DispatchBatching {
  /** Notifications per ledger claim and per publish. */
  maxItems: number;
  /** How long the first notification of a partial batch waits for company. */
  maxDelayMs: number;
  /** Batches claimed and published at once; notifications arriving meanwhile gather into the next. */
  maxConcurrentFlushes: number;
}

export const DEFAULT_DISPATCH_BATCHING: DispatchBatching = { maxItems: 500, maxDelayMs: 2, maxConcurrentFlushes: 2 };

/** Published marks are off the hot path: gathered longer, written in bigger batches. */
const MARK_BATCH = { maxItems: 2_000, maxDelayMs: 20 };
/** Claims this process holds but failed to publish; beyond this many something is badly wrong anyway. */
const MAX_HELD = 100_000;

/**
 * Claims and publishes notifications for every caller at once: the records in flight (several
 * partitions, several keys per partition), the sweeper and the forecast slot all hand their
 * notifications to one {@link MicroBatcher}, so the database sees one unordered `insertMany` of
 * claims and Kafka one send per batch instead of a round trip per record.
 *
 * A notification already claimed (a replay, another instance, a second caller in the same batch)
 * is not published again. The "published" mark (one per batch), which only serves to hand out
 * claims abandoned by a crash between claim and publish, is written in the background: if it is
 * lost the claims look abandoned after CLAIM_STALE_MS and a replay publishes them once more, which
 * the notifier drops by id.
 */
export class NotificationDispatcher {
  private readonly claims: MicroBatcher<Notification, boolean>;
  private readonly marks: MicroBatcher<string, void>;
  /**
   * Ids this process claimed whose publish failed. The record is retried and comes back with them:
   * they are ours to send, whether or not the release of the claim reached the database (if it did
   * not, the ledger would call them taken for CLAIM_STALE_MS and the retry would drop them).
   */
  private readonly held = new Set<string>();
  /** Batch ids: unique per process start (random tag) and per flush (counter). */
  private readonly instanceTag = randomBytes(6).toString('hex');
  private batches = 0;

  constructor(
    private readonly ledger: NotificationLedger,
    private readonly publisher: AlarmPublisher,
    private readonly clock: Clock,
    private readonly logger?: Logger,
    batching: DispatchBatching = DEFAULT_DISPATCH_BATCHING,
    private readonly gate?: DeliveryGate,
  ) {
    this.claims = new MicroBatcher({ ...batching, flush: (items) => this.claimAndPublish(items) });
    this.marks = new MicroBatcher({ ...MARK_BATCH, flush: (ids) => this.markPublished(ids) });
  }

  /**
   * Resolves with the notifications this call published, once the broker has them; rejects when
   * the claim or the publish failed (the caller's record is then retried and claims again).
   */
  async dispatch(notifications: readonly Notification[]): Promise<Notification[]> {
    // Every kind of notification passes here (strikes, storms, rain, all-clears, forecast slots), so
    // this is the one place a suspended registration is held back. Not claimed either: the ledger
    // keeps no trace, and nothing of it is sent later when the registration resumes.
    const entitled = this.gate ? notifications.filter((n) => this.gate!.suspension(n.addressee) === undefined) : notifications;
    if (entitled.length === 0) return [];
    // One notification per id even when a call repeats one (a registration matched twice).
    const unique = [...new Map(entitled.map((n) => [n.notificationId, n])).values()];
    const sent = await Promise.all(unique.map((n) => this.claims.add(n)));
    return unique.filter((_, i) => sent[i]);
  }

  /** Waits until every batch and published mark started so far is written (stop, tests). */
  async drain(): Promise<void> {
    await this.claims.drain();
    await this.marks.drain();
  }

  private async claimAndPublish(items: readonly Notification[]): Promise<boolean[]> {
    // Two callers may bring the same notification in one batch: the first one gets it.
    const first = new Map<string, number>();
    items.forEach((n, i) => {
      if (!first.has(n.notificationId)) first.set(n.notificationId, i);
    });
    const unique = [...first.values()].map((i) => items[i]!);
    const mine = new Set(unique.filter((n) => this.held.delete(n.notificationId)).map((n) => n.notificationId));
    const toClaim = unique.filter((n) => !mine.has(n.notificationId));
    const now = this.clock.now();
    const batchId = `bat_${this.instanceTag}_${(this.batches += 1).toString(36)}`;
    let claimed: ClaimResult;
    try {
      claimed = await this.ledger.claim(
        toClaim.map((n) => ({ notificationId: n.notificationId, registrationId: n.addressee.registrationId, eventId: n.eventId, stage: n.stage })),
        now,
        batchId,
      );
    } catch (error) {
      for (const id of mine) this.held.add(id);
      throw error;
    }
    const toSend = new Set([...mine, ...claimed.fresh, ...claimed.retaken]);
    const selected = unique.filter((n) => toSend.has(n.notificationId));
    if (selected.length > 0) {
      try {
        await this.publisher.publish(selected, now);
      } catch (error) {
        if (this.held.size + toSend.size <= MAX_HELD) for (const id of toSend) this.held.add(id);
        await this.ledger.release([...toSend]).catch(() => undefined);
        throw error;
      }
      // One mark for the batch's own claims; notifications claimed in another batch (taken over,
      // or resent after a failed publish) are marked one by one.
      for (const id of [...(claimed.fresh.length > 0 ? [batchId] : []), ...claimed.retaken, ...mine]) void this.marks.add(id);
    }
    return items.map((n, i) => first.get(n.notificationId) === i && toSend.has(n.notificationId));
  }

  /** Never fails its callers: a lost mark costs at most a duplicate the notifier drops. */
  private async markPublished(ids: readonly string[]): Promise<void[]> {
    try {
      await this.ledger.markPublished(ids, this.clock.now());
    } catch (error) {
      this.logger?.warn({ err: error, notifications: ids.length }, 'published marks not written; a replay after a crash may publish these notifications again');
    }
    return ids.map(() => undefined);
  }
}
