import type { Delivery } from '../domain/delivery.js';
import type { QueueEntry } from '../ports/delivery-store.js';

/** A known entry, with the delivery when this instance had it in hand (it queued the entry itself). */
export interface ScheduledWork {
  entry: QueueEntry;
  delivery?: Delivery;
}

/**
 * The queue entries this instance knows of, in memory: the retries and overflow it queued itself
 * (at once) and what its periodic read of the queue found (work of other instances, redeliveries,
 * recovered holds). Picking due work from here costs no database read; the database stays the truth
 * (each attempt is still claimed there with a unique insert, so a stale entry here loses its claim).
 *
 * Entries are grouped by endpoint, and an endpoint without room is skipped whole: the worker looks
 * here at every freed slot (thousands of times a second), and a dead endpoint's backlog of hundreds
 * of entries, walked at each look, cost the healthy endpoints CPU in proportion to that backlog.
 */
export class WorkSchedule {
  private readonly byEndpoint = new Map<string, Map<string, ScheduledWork>>();
  private readonly endpointOf = new Map<string, string>();

  get size(): number {
    return this.endpointOf.size;
  }

  put(entry: QueueEntry, delivery?: Delivery): void {
    this.set(delivery ? { entry, delivery } : { entry });
  }

  /** An entry as read from the queue: a known one for the same attempt keeps the delivery it carries. */
  merge(entry: QueueEntry): void {
    const known = this.get(entry.deliveryId);
    if (known?.delivery && known.entry.attempt === entry.attempt) this.set({ entry, delivery: known.delivery });
    else this.set({ entry });
  }

  remove(deliveryId: string): void {
    const endpointId = this.endpointOf.get(deliveryId);
    if (endpointId === undefined) return;
    this.endpointOf.delete(deliveryId);
    const group = this.byEndpoint.get(endpointId);
    group?.delete(deliveryId);
    if (group?.size === 0) this.byEndpoint.delete(endpointId);
  }

  /** Due entries, oldest first, at most `free`, each endpoint within its `room`; taken out of the schedule. */
  take(now: number, free: number, room: (endpointId: string) => number): ScheduledWork[] {
    if (free <= 0) return [];
    const due: ScheduledWork[] = [];
    for (const [endpointId, group] of this.byEndpoint) {
      if (room(endpointId) <= 0) continue;
      for (const work of group.values()) if (isDue(work.entry, now)) due.push(work);
    }
    due.sort((a, b) => a.entry.dueAt.getTime() - b.entry.dueAt.getTime());
    const planned = new Map<string, number>();
    const chosen: ScheduledWork[] = [];
    for (const work of due) {
      const { entry } = work;
      if (chosen.length >= free) break;
      const used = planned.get(entry.endpointId) ?? 0;
      if (used >= room(entry.endpointId)) continue;
      planned.set(entry.endpointId, used + 1);
      chosen.push(work);
      this.remove(entry.deliveryId);
    }
    return chosen;
  }

  /**
   * When the earliest entry that is not due yet becomes due (epoch ms), or null. Endpoints without
   * room are left out: a freed slot wakes the worker anyway.
   */
  nextDueAt(now: number, room: (endpointId: string) => number = () => 1): number | null {
    let next: number | null = null;
    for (const [endpointId, group] of this.byEndpoint) {
      if (room(endpointId) <= 0) continue;
      for (const { entry } of group.values()) {
        if (entry.outbox) continue;
        const at = Math.max(entry.dueAt.getTime(), entry.leaseUntil?.getTime() ?? 0);
        if (at > now && (next === null || at < next)) next = at;
      }
    }
    return next;
  }

  private get(deliveryId: string): ScheduledWork | undefined {
    const endpointId = this.endpointOf.get(deliveryId);
    return endpointId === undefined ? undefined : this.byEndpoint.get(endpointId)?.get(deliveryId);
  }

  private set(work: ScheduledWork): void {
    const { deliveryId, endpointId } = work.entry;
    if (this.endpointOf.get(deliveryId) !== endpointId) this.remove(deliveryId);
    this.endpointOf.set(deliveryId, endpointId);
    let group = this.byEndpoint.get(endpointId);
    if (!group) {
      group = new Map();
      this.byEndpoint.set(endpointId, group);
    }
    group.set(deliveryId, work);
  }
}

function isDue(entry: QueueEntry, now: number): boolean {
  return !entry.outbox && entry.dueAt.getTime() <= now && !(entry.leaseUntil && entry.leaseUntil.getTime() > now);
}
