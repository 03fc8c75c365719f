import type { MultiPolygon } from '@stormhook/geometry';
import type { LightningActivity } from '../lifecycle/lightning-episode.js';
import type { AlarmPublisher } from '../ports/alarm-publisher.js';
import type { JobLock } from '../ports/job-lock.js';
import type { LightningActivityStore } from '../ports/lightning-activity-store.js';
import { areaRefKey, type AreaRef, type GeoPort } from '../ports/geo-port.js';
import type { ClaimResult, NotificationClaim, NotificationLedger } from '../ports/notification-ledger.js';
import type { SlotClaim, SlotLedger } from '../ports/slot-ledger.js';
import type { Notification } from '../payloads/notification.js';
import { isOpen } from '../lifecycle/tracked-event.js';
import type { LastRevision, StoredTrackedState, TrackedKind } from '../lifecycle/stored-tracked-state.js';
import type { TrackedStateStore } from '../ports/tracked-state-store.js';

/** In-memory fakes of the matcher's own ports, for unit tests of the use cases. */
export class MemoryLedger implements NotificationLedger {
  /** Claimed notification id -> the batch it was claimed in. */
  readonly claims = new Map<string, string>();
  /** Marked batch and notification ids. */
  readonly published = new Set<string>();
  /** How many claim calls (round trips) were made, and with how many claims each. */
  readonly claimCalls: number[] = [];
  failRelease = false;

  async claim(claims: readonly NotificationClaim[], _nowMs: number, batchId: string): Promise<ClaimResult> {
    this.claimCalls.push(claims.length);
    const fresh: string[] = [];
    for (const c of claims) {
      if (this.claims.has(c.notificationId)) continue;
      this.claims.set(c.notificationId, batchId);
      fresh.push(c.notificationId);
    }
    return { fresh, retaken: [] };
  }
  async markPublished(ids: readonly string[]): Promise<void> {
    for (const id of ids) this.published.add(id);
  }
  async release(ids: readonly string[]): Promise<void> {
    if (this.failRelease) throw new Error('database unavailable');
    for (const id of ids) this.claims.delete(id);
  }
  async isPublished(id: string): Promise<boolean> {
    const batch = this.claims.get(id);
    return this.published.has(id) || (batch !== undefined && this.published.has(batch));
  }
}

export class RecordingPublisher implements AlarmPublisher {
  readonly sent: Notification[] = [];
  /** Sizes of the publish calls (one broker round trip each). */
  readonly calls: number[] = [];
  failNext = false;

  async publish(notifications: readonly Notification[]): Promise<void> {
    this.calls.push(notifications.length);
    if (this.failNext) {
      this.failNext = false;
      throw new Error('broker unavailable');
    }
    this.sent.push(...notifications);
  }
}

export class MemorySlotLedger implements SlotLedger {
  readonly claims = new Map<string, SlotClaim>();

  async claim(claim: SlotClaim): Promise<boolean> {
    if (this.claims.has(claim.claimId)) return false;
    this.claims.set(claim.claimId, { ...claim });
    return true;
  }
  async claimsOf(slotId: string): Promise<SlotClaim[]> {
    return [...this.claims.values()].filter((c) => c.slotId === slotId).sort((a, b) => a.claimedAtMs - b.claimedAtMs);
  }
  async finish(claimId: string, result: { finishedAtMs: number; registrations: number; notifications: number; forecastRunId?: string }): Promise<void> {
    const claim = this.claims.get(claimId);
    if (claim) this.claims.set(claimId, { ...claim, status: 'done', ...result });
  }
}

/** Geo with polygons only (what the slot runner and the indexer need). */
export class PolygonGeo implements GeoPort {
  constructor(private readonly shapes: ReadonlyMap<string, MultiPolygon>) {}

  async city(): Promise<undefined> {
    return undefined;
  }
  async district(): Promise<undefined> {
    return undefined;
  }
  async neighbourhood(): Promise<undefined> {
    return undefined;
  }
  async resolvePoint(): Promise<{ countryCode: string }> {
    return { countryCode: '' };
  }
  async polygons(refs: readonly AreaRef[]): Promise<Map<string, MultiPolygon>> {
    const found = new Map<string, MultiPolygon>();
    for (const ref of refs) {
      const shape = this.shapes.get(areaRefKey(ref));
      if (shape) found.set(areaRefKey(ref), shape);
    }
    return found;
  }
}

/** The lifecycle states of tracked events, in memory (tests and the in-process benchmark). */
export class MemoryTrackedStateStore implements TrackedStateStore {
  readonly events = new Map<string, { kind: TrackedKind; states: StoredTrackedState[]; last?: LastRevision }>();

  async byEvent(eventId: string): Promise<Map<string, StoredTrackedState>> {
    return new Map((this.events.get(eventId)?.states ?? []).map((state) => [state.registrationId, state]));
  }
  async saveEvent(eventId: string, kind: TrackedKind, states: readonly StoredTrackedState[], _nowMs: number, last?: LastRevision): Promise<void> {
    const kept = last ?? this.events.get(eventId)?.last;
    this.events.set(eventId, { kind, states: [...states], ...(kept ? { last: kept } : {}) });
  }
  async expired(nowMs: number, limit: number): Promise<Array<{ eventId: string; kind: TrackedKind; states: StoredTrackedState[]; last?: LastRevision }>> {
    const due = [...this.events].filter(([, event]) => event.states.some((s) => isOpen(s) && s.expiresAtMs <= nowMs));
    return due.slice(0, limit).map(([eventId, event]) => ({ eventId, ...event }));
  }
  async purgeEndedBefore(ms: number): Promise<number> {
    let purged = 0;
    for (const [eventId, event] of this.events) {
      if (event.states.every((s) => !isOpen(s) && s.updatedAtMs < ms)) {
        this.events.delete(eventId);
        purged++;
      }
    }
    return purged;
  }
}

/** Lightning episodes in memory, as the database keeps them (a close spares an episode that moved on). */
export class MemoryLightningActivityStore implements LightningActivityStore {
  readonly rows = new Map<string, LightningActivity>();

  async get(registrationIds: readonly string[]): Promise<Map<string, LightningActivity>> {
    return new Map(registrationIds.flatMap((id) => (this.rows.has(id) ? [[id, this.rows.get(id)!] as const] : [])));
  }
  async save(activities: readonly LightningActivity[]): Promise<void> {
    for (const activity of activities) this.rows.set(activity.registrationId, activity);
  }
  async quietSince(lastStrikeAtOrBeforeMs: number, limit: number): Promise<LightningActivity[]> {
    return [...this.rows.values()].filter((a) => a.lastStrikeMs <= lastStrikeAtOrBeforeMs).slice(0, limit);
  }
  async close(activity: LightningActivity): Promise<void> {
    const held = this.rows.get(activity.registrationId);
    if (held && held.firstStrikeMs === activity.firstStrikeMs && held.lastStrikeMs === activity.lastStrikeMs) this.rows.delete(activity.registrationId);
  }
}

/** Job windows in memory: the first call of a window takes it, as the unique insert does. */
export class MemoryJobLock implements JobLock {
  private readonly taken = new Set<string>();

  async acquire(job: string, windowMs: number, nowMs: number): Promise<boolean> {
    const key = `${job}:${Math.floor(nowMs / windowMs)}`;
    if (this.taken.has(key)) return false;
    this.taken.add(key);
    return true;
  }
}
