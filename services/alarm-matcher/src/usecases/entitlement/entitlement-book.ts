import { decideEntitlement, type AccessSnapshot, type MeteredService, type ResolvedLocation, type SuspensionReason } from '@stormhook/access';
import type { Logger } from '@stormhook/logger';
import type { Registration, RegistrationKind } from '../../domain/registration.js';
import type { Clock } from '../../ports/clock.js';
import type { EntitlementSource } from '../../ports/entitlement-source.js';

/** Why a registration delivers nothing now, and since when (epoch ms). */
export interface Suspension {
  reason: SuspensionReason;
  sinceMs: number;
}

/** What the book needs to know of a registration: a notification's addressee has it. */
export interface RegistrationRef {
  registrationId: string;
  accountId: string;
  kind: RegistrationKind;
}

const SERVICE_OF: Readonly<Record<RegistrationKind, MeteredService>> = {
  GEOMETRY: 'ALARM_GEOMETRY',
  POINT: 'ALARM_POINT',
  FORECAST: 'ALARM_FORECAST',
};

interface Owner {
  snapshot: AccessSnapshot | undefined;
  learntAtMs: number;
}

interface Place {
  version: number;
  location: ResolvedLocation | undefined;
}

/** One registration's last decision, valid while its owner entry and place are the same and until `untilMs`. */
interface Decided {
  owner: Owner;
  place: Place | undefined;
  untilMs: number;
  suspension: Suspension | undefined;
}

export interface EntitlementBookDeps {
  source: EntitlementSource;
  /** The registration held in memory (index or forecast alarms), and every id held. */
  registrations: { get(registrationId: string): Registration | undefined; ids(): Iterable<string> };
  /** Where a registration lies (registration-place.ts, through geo). */
  placeOf(registration: Registration): Promise<ResolvedLocation | undefined>;
  clock: Clock;
  logger: Logger;
  /** Identity calls at once during a refresh. */
  concurrency?: number;
  /** After a failed read of an account, how long the matching path leaves it to the periodic refresh. */
  retryAfterFailureMs?: number;
}

/**
 * Without it, every notification of an account identity would not answer started another read: in
 * the city-storm benchmark (accounts identity does not know) about a sixth of the matcher's busy time went on
 * gRPC calls and their errors' stack traces, on the path that must not call a service.
 */
const DEFAULT_RETRY_AFTER_FAILURE_MS = 30_000;

/**
 * Whether each registration's account is still entitled to deliveries, decided from memory: the
 * owners' access snapshots (loaded from identity at start, re-read on identity.user-changed.v1 and
 * by a periodic refresh) and each registration's place. Nothing here reads a database or calls a
 * service on the matching path: {@link suspension} is a few map reads, and a decision is kept until
 * the owner's snapshot or the registration changes or the subscription's expiry passes (expiry has
 * no event, so the clock decides it).
 *
 * An account not loaded yet (identity was unreachable, or the registration is newer than the last
 * refresh) is treated as entitled, as before this book existed, and loaded in the background:
 * stopping every alarm because identity is briefly down would be the worse failure.
 */
export class EntitlementBook {
  private readonly owners = new Map<string, Owner>();
  private readonly accountOfUser = new Map<string, string>();
  private readonly places = new Map<string, Place>();
  private readonly decided = new Map<string, Decided>();
  private readonly loading = new Map<string, Promise<void>>();
  private readonly locating = new Set<string>();
  /** Reads started per account: an older read that answers late must not replace a newer one. */
  private readonly reads = new Map<string, number>();
  /** When the last read of an account failed (epoch ms); cleared by the next read that succeeds. */
  private readonly failedAt = new Map<string, number>();

  constructor(private readonly deps: EntitlementBookDeps) {}

  /** Undefined when `registration` may deliver now. */
  suspension(registration: RegistrationRef, nowMs = this.deps.clock.now()): Suspension | undefined {
    const owner = this.owners.get(registration.accountId);
    if (!owner) {
      const failed = this.failedAt.get(registration.accountId);
      if (failed === undefined || nowMs - failed >= (this.deps.retryAfterFailureMs ?? DEFAULT_RETRY_AFTER_FAILURE_MS)) void this.load(registration.accountId);
      return undefined;
    }
    const place = this.currentPlace(registration.registrationId);
    const held = this.decided.get(registration.registrationId);
    if (held && held.owner === owner && held.place === place && nowMs < held.untilMs) return held.suspension;

    const decision = decideEntitlement(
      owner.snapshot,
      { service: SERVICE_OF[registration.kind], ...(place?.location ? { location: place.location } : {}) },
      new Date(nowMs),
    );
    let suspension: Suspension | undefined;
    if (!decision.entitled) {
      // The same reason as before keeps its start: a refresh that changes nothing must not move it.
      const same = held?.suspension?.reason === decision.reason ? held.suspension : undefined;
      suspension = same ?? { reason: decision.reason, sinceMs: decision.sinceMs ?? owner.learntAtMs };
    }
    const expiresAtMs = owner.snapshot?.account?.subscription.expiresAt?.getTime();
    const untilMs = decision.entitled && expiresAtMs !== undefined ? expiresAtMs : Number.POSITIVE_INFINITY;
    this.decided.set(registration.registrationId, { owner, place, untilMs, suspension });
    return suspension;
  }

  /** identity.user-changed.v1: the user's account (when it has registrations here) is read again. */
  async userChanged(userId: string): Promise<void> {
    const accountId = this.accountOfUser.get(userId);
    if (accountId) await this.load(accountId, true);
  }

  /**
   * Reads every owner again: at start (before matching) and periodically, which repairs what a lost
   * change event left behind. Failures are logged and leave what was held.
   */
  async refresh(): Promise<{ accounts: number; failed: number }> {
    const accounts = new Set<string>();
    const ids = [...this.deps.registrations.ids()];
    for (const id of ids) {
      const registration = this.deps.registrations.get(id);
      if (registration) accounts.add(registration.accountId);
    }
    let failed = 0;
    const queue = [...accounts];
    const worker = async () => {
      for (let accountId = queue.pop(); accountId !== undefined; accountId = queue.pop()) {
        if (!(await this.load(accountId, true))) failed += 1;
      }
    };
    await Promise.all(Array.from({ length: this.deps.concurrency ?? 8 }, worker));
    for (const id of this.decided.keys()) if (!this.deps.registrations.get(id)) this.forget(id);
    return { accounts: accounts.size, failed };
  }

  /**
   * Resolves the place of every registration that has none or an outdated one (geo calls, a few at
   * a time). Not awaited at start: until a place is known its geography is not judged, which is how
   * every registration behaved before, and a start with 100,000 point alarms must not wait for it.
   */
  async locateAll(): Promise<void> {
    const queue = [...this.deps.registrations.ids()];
    const worker = async () => {
      for (let id = queue.pop(); id !== undefined; id = queue.pop()) await this.locate(id);
    };
    await Promise.all(Array.from({ length: this.deps.concurrency ?? 8 }, worker));
  }

  private forget(registrationId: string): void {
    this.decided.delete(registrationId);
    this.places.delete(registrationId);
  }

  /** The place of the registration as held now; an outdated one (the registration moved) is not used. */
  private currentPlace(registrationId: string): Place | undefined {
    const place = this.places.get(registrationId);
    const registration = this.deps.registrations.get(registrationId);
    if (registration && place?.version === registration.version) return place;
    void this.locate(registrationId);
    return undefined;
  }

  private async locate(registrationId: string): Promise<void> {
    const registration = this.deps.registrations.get(registrationId);
    if (!registration || this.places.get(registrationId)?.version === registration.version || this.locating.has(registrationId)) return;
    this.locating.add(registrationId);
    try {
      this.places.set(registrationId, { version: registration.version, location: await this.deps.placeOf(registration) });
    } catch (error) {
      this.deps.logger.warn({ err: error, registrationId }, 'registration place not resolved; its geography is judged after the next refresh');
    } finally {
      this.locating.delete(registrationId);
    }
  }

  /** True when identity answered. */
  private load(accountId: string, again = false): Promise<boolean> {
    const running = this.loading.get(accountId);
    if (running && !again) return running.then(() => true);
    const work = (async () => {
      const read = (this.reads.get(accountId) ?? 0) + 1;
      this.reads.set(accountId, read);
      try {
        const snapshot = await this.deps.source.ownerOf(accountId);
        if (this.reads.get(accountId) !== read) return true;
        this.owners.set(accountId, { snapshot, learntAtMs: this.deps.clock.now() });
        this.failedAt.delete(accountId);
        if (snapshot) this.accountOfUser.set(snapshot.userId, accountId);
        return true;
      } catch (error) {
        this.failedAt.set(accountId, this.deps.clock.now());
        this.deps.logger.warn({ err: error, accountId }, 'entitlement not read; the account keeps what was held (entitled when nothing was)');
        return false;
      }
    })();
    const settled = work.then(() => undefined);
    this.loading.set(accountId, settled);
    void settled.then(() => {
      if (this.loading.get(accountId) === settled) this.loading.delete(accountId);
    });
    return work;
  }
}
