import type { Delivery, ForecastRegistration, Registration } from '../domain/registration.js';
import type { CellForecast } from '../forecast/forecast-cells.js';
import type { MultiPolygon } from '../geometry/types.js';
import type { AlarmPublisher } from '../ports/alarm-publisher.js';
import type { ForecastStore } from '../ports/forecast-store.js';
import { areaRefKey, type AreaRef, type GeoPort } from '../ports/geo-port.js';
import type { NotificationClaim, NotificationLedger } from '../ports/notification-ledger.js';
import type { Page, RegistrationQuery, RegistrationRepository } from '../ports/registration-repository.js';
import type { SlotClaim, SlotLedger } from '../ports/slot-ledger.js';
import type { Notification } from '../payloads/notification.js';

/** In-memory fakes of the matcher's own ports, for unit tests of the use cases. */
export class MemoryLedger implements NotificationLedger {
  readonly claims = new Map<string, number>();
  readonly published = new Set<string>();

  async claim(claims: readonly NotificationClaim[], nowMs: number): Promise<string[]> {
    const out: string[] = [];
    for (const c of claims) {
      if (this.published.has(c.notificationId)) continue;
      if (!this.claims.has(c.notificationId)) this.claims.set(c.notificationId, nowMs);
      else continue;
      out.push(c.notificationId);
    }
    return out;
  }
  async markPublished(ids: readonly string[]): Promise<void> {
    for (const id of ids) this.published.add(id);
  }
  async release(ids: readonly string[]): Promise<void> {
    for (const id of ids) this.claims.delete(id);
  }
  async isPublished(id: string): Promise<boolean> {
    return this.published.has(id);
  }
}

export class RecordingPublisher implements AlarmPublisher {
  readonly sent: Notification[] = [];
  failNext = false;

  async publish(notifications: readonly Notification[]): Promise<void> {
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

export class MemoryRegistrations implements RegistrationRepository {
  readonly items = new Map<string, Registration>();

  async insert(r: Registration): Promise<'inserted' | 'duplicate'> {
    this.items.set(r.registrationId, r);
    return 'inserted';
  }
  async replace(r: Registration): Promise<'replaced' | 'duplicate' | 'missing'> {
    if (!this.items.has(r.registrationId)) return 'missing';
    this.items.set(r.registrationId, r);
    return 'replaced';
  }
  async delete(id: string): Promise<boolean> {
    return this.items.delete(id);
  }
  async findById(id: string): Promise<Registration | undefined> {
    return this.items.get(id);
  }
  async findByArea(): Promise<Registration | undefined> {
    return undefined;
  }
  async page(query: RegistrationQuery, pageNumber: number, pageSize: number): Promise<Page<Registration>> {
    const all = await this.list(query);
    return { items: all.slice(pageNumber * pageSize, (pageNumber + 1) * pageSize), total: all.length };
  }
  async list(query: RegistrationQuery): Promise<Registration[]> {
    return [...this.items.values()].filter((r) => r.kind === query.kind && (query.accountId === undefined || r.accountId === query.accountId));
  }
  async *all(): AsyncIterable<Registration> {
    yield* this.items.values();
  }
  async *forecastsFor(delivery: Delivery): AsyncIterable<ForecastRegistration> {
    for (const r of this.items.values()) if (r.kind === 'FORECAST' && r.delivery.includes(delivery)) yield r;
  }
}

export class MemoryForecasts implements ForecastStore {
  cells: CellForecast[] = [];

  async save(cells: readonly CellForecast[]): Promise<void> {
    this.cells.push(...cells);
  }
  async all(): Promise<CellForecast[]> {
    return this.cells;
  }
  async near(): Promise<CellForecast[]> {
    return this.cells;
  }
  async purgeIssuedBefore(): Promise<number> {
    return 0;
  }
  async newestIssueMs(): Promise<number | undefined> {
    return undefined;
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
