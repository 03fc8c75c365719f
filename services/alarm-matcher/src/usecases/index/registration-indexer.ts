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

  /**
   * Reads every registration from the database, loads what is newer than what is held and drops what
   * the database no longer holds: the repair of a lost broadcast. The read runs beside the changes
   * (only its result is applied in turn with them), so broadcasts are not held up for its length. On
   * FerretDB it is the costliest thing the matcher does: a full read of 100,000 registrations takes
   * the database's core for about a minute (city-storm bench), hence its long default interval.
   */
  async reconcile(): Promise<{ loaded: number; removed: number }> {
    // Held before the read: only these may be dropped as absent (one added during the read may lie
    // behind the cursor's position and is not absent).
    const heldBefore = new Set(this.versions.keys());
    const seen = new Map<string, number>();
    const newer: Registration[] = [];
    for await (const registration of this.repo.all()) {
      const id = registration.registrationId;
      seen.set(id, registration.version);
      if (this.wanted(registration)) newer.push(registration);
    }
    return this.serial(async () => {
      const realtime: RealtimeRegistration[] = [];
      for (const [id, version] of seen) {
        if ((this.tombstones.get(id) ?? 0) >= version) continue; // removed while the read ran
        this.versions.set(id, Math.max(this.versions.get(id) ?? 0, version));
      }
      for (const registration of newer) {
        if ((this.tombstones.get(registration.registrationId) ?? 0) >= registration.version || !this.wanted(registration)) continue;
        if (isRealtime(registration)) realtime.push(registration);
        else this.forecasts.upsert(registration);
      }
      await this.load(realtime);
      let removed = 0;
      for (const id of [...this.versions.keys()]) {
        if (seen.has(id) || !heldBefore.has(id)) continue;
        this.versions.delete(id);
        this.pending.delete(id);
        if (this.index.remove(id) || this.forecasts.remove(id)) removed++;
      }
      // Tombstones are a few bytes per removal; a long-lived instance forgets them in bulk now and then.
      if (this.tombstones.size > 100_000) this.tombstones.clear();
      return { loaded: realtime.length, removed };
    });
  }

  /**
   * Places again the registrations waiting for their boundary (geo did not answer): from memory, with
   * no database read, so it can run far more often than the reconciliation. Answers how many wait.
   */
  retryPending(): Promise<number> {
    return this.serial(async () => {
      if (this.pending.size > 0) await this.load([...this.pending.values()]);
      return this.pending.size;
    });
  }

  /** Whether a stored registration is newer than what the index holds (or still waits for its boundary). */
  private wanted(registration: Registration): boolean {
    const id = registration.registrationId;
    if (!isRealtime(registration)) {
      const current = this.forecasts.get(id);
      return !current || current.version < registration.version;
    }
    const current = this.index.get(id);
    return !current || current.version < registration.version || this.pending.has(id);
  }
}
