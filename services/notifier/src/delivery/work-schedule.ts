import type { QueueEntry } from '../ports/delivery-store.js';

/**
 * The queue entries this instance knows of, in memory: the retries and overflow it queued itself
 * (at once) and what its periodic read of the queue found (work of other instances, redeliveries,
 * recovered holds). Picking due work from here costs no database read; the database stays the truth
 * (each attempt is still claimed there with a unique insert, so a stale entry here loses its claim).
 */
export class WorkSchedule {
  private readonly entries = new Map<string, QueueEntry>();

  get size(): number {
    return this.entries.size;
  }

  put(entry: QueueEntry): void {
    this.entries.set(entry.deliveryId, entry);
  }

  remove(deliveryId: string): void {
    this.entries.delete(deliveryId);
  }

  /** Due entries, oldest first, at most `free`, each endpoint within its `room`; taken out of the schedule. */
  take(now: number, free: number, room: (endpointId: string) => number): QueueEntry[] {
    if (free <= 0) return [];
    const due: QueueEntry[] = [];
    const blocked = new Set<string>();
    for (const entry of this.entries.values()) {
      if (entry.outbox || entry.dueAt.getTime() > now || (entry.leaseUntil && entry.leaseUntil.getTime() > now)) continue;
      if (blocked.has(entry.endpointId)) continue;
      if (room(entry.endpointId) <= 0) {
        blocked.add(entry.endpointId);
        continue;
      }
      due.push(entry);
    }
    due.sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime());
    const planned = new Map<string, number>();
    const chosen: QueueEntry[] = [];
    for (const entry of due) {
      if (chosen.length >= free) break;
      const used = planned.get(entry.endpointId) ?? 0;
      if (used >= room(entry.endpointId)) continue;
      planned.set(entry.endpointId, used + 1);
      chosen.push(entry);
      this.entries.delete(entry.deliveryId);
    }
    return chosen;
  }

  /** When the earliest entry that is not due yet becomes due (epoch ms), or null. */
  nextDueAt(now: number): number | null {
    let next: number | null = null;
    for (const entry of this.entries.values()) {
      if (entry.outbox) continue;
      const at = Math.max(entry.dueAt.getTime(), entry.leaseUntil?.getTime() ?? 0);
      if (at > now && (next === null || at < next)) next = at;
    }
    return next;
  }
}
