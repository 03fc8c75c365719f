import type { Logger } from '@stormhook/logger';
import { isRealtime, type RealtimeRegistration, type Registration } from '../../domain/registration.js';
import type { ForecastRegistrations } from '../../forecast/forecast-registrations.js';
import type { RegistrationIndex } from '../../matching/registration-index.js';
import { DependencyUnavailableError } from '../../ports/dependency.js';
import type { RegistrationRepository } from '../../ports/registration-repository.js';
import { areaRefOf, type AreaShapes } from './area-shapes.js';

/**
 * Keeps this instance's {@link RegistrationIndex} (geometry and point alarms) and its
 * {@link ForecastRegistrations} equal to the database: a full load at start, then the broadcast
 * changes (applied only when newer than what is held), and a periodic reconciliation that repairs
 * anything a lost broadcast left behind. Changes are applied one at a time, in order.
 */
export class RegistrationIndexer {
  private readonly versions = new Map<string, number>();
  /** Removed registrations and the version of their removal, so a late older broadcast cannot revive them. */
  private readonly tombstones = new Map<string, number>();
  /** Registrations waiting for their boundary because geo did not answer. */
  private readonly pending = new Map<string, RealtimeRegistration>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly index: RegistrationIndex,
    private readonly forecasts: ForecastRegistrations,
    private readonly shapes: AreaShapes,
    private readonly repo: Pick<RegistrationRepository, 'all'>,
    private readonly logger: Logger,
  ) {}

  get pendingCount(): number {
    return this.pending.size;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private place(registration: RealtimeRegistration): void {
    const area = this.shapes.watchedArea(registration);
    if (!area) {
      this.pending.set(registration.registrationId, registration);
      this.index.remove(registration.registrationId);
      return;
    }
    this.pending.delete(registration.registrationId);
    this.index.upsert(registration, area);
  }

  private async load(registrations: readonly RealtimeRegistration[]): Promise<void> {
    const refs = registrations.filter((r) => r.kind === 'GEOMETRY').map((r) => areaRefOf(r.area));
    try {
      await this.shapes.ensure(refs);
    } catch (error) {
      if (!(error instanceof DependencyUnavailableError)) throw error;
      this.logger.warn({ err: error, registrations: registrations.length }, 'geo unavailable: geometry alarms wait for their boundaries and are retried');
    }
    for (const registration of registrations) this.place(registration);
  }

  /** A registration saved or broadcast; ignored when not newer than the one held. */
  apply(registration: Registration): Promise<void> {
    return this.serial(async () => {
      const id = registration.registrationId;
      if ((this.versions.get(id) ?? 0) >= registration.version || (this.tombstones.get(id) ?? 0) >= registration.version) return;
      this.versions.set(id, registration.version);
      if (!isRealtime(registration)) {
        this.forecasts.upsert(registration);
        return;
      }
      await this.load([registration]);
    });
  }

  remove(registrationId: string, version: number): Promise<void> {
    return this.serial(async () => {
      if ((this.tombstones.get(registrationId) ?? 0) >= version) return;
      this.tombstones.set(registrationId, version);
      this.versions.delete(registrationId);
      this.pending.delete(registrationId);
      this.index.remove(registrationId);
      this.forecasts.remove(registrationId);
    });
  }

  /** Loads every registration from the database and drops what it no longer holds. */
  reconcile(): Promise<{ loaded: number; removed: number }> {
    return this.serial(async () => {
      const realtime: RealtimeRegistration[] = [];
      const seen = new Set<string>();
      for await (const registration of this.repo.all()) {
        seen.add(registration.registrationId);
        const held = this.versions.get(registration.registrationId);
        this.versions.set(registration.registrationId, Math.max(held ?? 0, registration.version));
        if (!isRealtime(registration)) {
          const current = this.forecasts.get(registration.registrationId);
          if (!current || current.version < registration.version) this.forecasts.upsert(registration);
          continue;
        }
        const current = this.index.get(registration.registrationId);
        if (!current || current.version < registration.version || this.pending.has(registration.registrationId)) realtime.push(registration);
      }
      await this.load(realtime);
      let removed = 0;
      for (const id of [...this.versions.keys()]) {
        if (seen.has(id)) continue;
        this.versions.delete(id);
        this.pending.delete(id);
        if (this.index.remove(id) || this.forecasts.remove(id)) removed++;
      }
      // Tombstones are a few bytes per removal; a long-lived instance forgets them in bulk now and then.
      if (this.tombstones.size > 100_000) this.tombstones.clear();
      return { loaded: realtime.length, removed };
    });
  }
}
