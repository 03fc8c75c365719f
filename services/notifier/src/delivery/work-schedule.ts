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
 */
export class WorkSchedule {
  private readonly entries = new Map<string, ScheduledWork>();

  get size(): number {
    return this.entries.size;
  }

  put(entry: QueueEntry, delivery?: Delivery): void {
    this.entries.set(entry.deliveryId, delivery ? { entry, delivery } : { entry });
  }

  /** An entry as read from the queue: a known one for the same attempt keeps the delivery it carries. */
  merge(entry: QueueEntry): void {
    const known = this.entries.get(entry.deliveryId);
    if (known?.delivery && known.entry.attempt === entry.attempt) this.entries.set(entry.deliveryId, { entry, delivery: known.delivery });
    else this.entries.set(entry.deliveryId, { entry });
  }

  remove(deliveryId: string): void {
    this.entries.delete(deliveryId);
  }

  /** Due entries, oldest first, at most `free`, each endpoint within its `room`; taken out of the schedule. */
  take(now: number, free: number, room: (endpointId: string) => number): ScheduledWork[] {
    if (free <= 0) return [];
    const due: ScheduledWork[] = [];
    const blocked = new Set<string>();
    for (const work of this.entries.values()) {
      const { entry } = work;
      if (entry.outbox || entry.dueAt.getTime() > now || (entry.leaseUntil && entry.leaseUntil.getTime() > now)) continue;
      if (blocked.has(entry.endpointId)) continue;
      if (room(entry.endpointId) <= 0) {
        blocked.add(entry.endpointId);
        continue;
      }
      due.push(work);
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
      this.entries.delete(entry.deliveryId);
    }
    return chosen;
  }

  /** When the earliest entry that is not due yet becomes due (epoch ms), or null. */
  nextDueAt(now: number): number | null {
    let next: number | null = null;
    for (const { entry } of this.entries.values()) {
      if (entry.outbox) continue;
      const at = Math.max(entry.dueAt.getTime(), entry.leaseUntil?.getTime() ?? 0);
      if (at > now && (next === null || at < next)) next = at;
    }
    return next;
  }
}
