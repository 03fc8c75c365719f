import { snapshotFromMessage, type AccessSnapshot } from '@stormhook/access';
import type { identityV1 } from '@stormhook/proto';

export interface AccessSnapshotPort {
  getAccessSnapshot(request: identityV1.GetAccessSnapshotRequest): Promise<identityV1.AccessSnapshot>;
}

export interface SnapshotCacheOptions {
  /**
   * How long a snapshot is used without asking identity again. Change events evict a snapshot at
   * once; this bounds the staleness when an event is missed (consumer down, publish failed).
   */
  ttlMs: number;
  /**
   * A request that finds its snapshot this close to the expiry is answered from it and starts the
   * next fetch in the background, so the requests of an active user never wait for identity in the
   * steady state (each wait was a p99 spike every ttlMs). Default a fifth of ttlMs, at most 1 s. The
   * bound is unchanged: no snapshot is used after its expiry.
   */
  refreshAheadMs?: number;
  /** Users kept at most; the least recently fetched go first. */
  maxEntries?: number;
  /** Milliseconds since the epoch; tests pass a manual clock. */
  now?: () => number;
}

interface Entry {
  snapshot: AccessSnapshot | undefined;
  until: number;
}

/**
 * The access state of each user the gateway has seen recently, in memory, keyed by user id: the
 * steady state of a request reads no database and makes no call. A miss asks identity once, however
 * many requests wait for it. `evict` (on identity.user-changed.v1) makes the next request read
 * again; a fetch that was already under way when the change came is not kept, since it may have
 * read the state from before the change.
 */
export class AccessSnapshotCache {
  private readonly entries = new Map<string, Entry>();
  /** One fetch per user at a time; an eviction drops it from here, which is how it learns it was overtaken. */
  private readonly inFlight = new Map<string, Promise<AccessSnapshot | undefined>>();
  private readonly ttlMs: number;
  private readonly refreshAheadMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly identity: AccessSnapshotPort,
    options: SnapshotCacheOptions,
  ) {
    this.ttlMs = options.ttlMs;
    this.refreshAheadMs = options.refreshAheadMs ?? Math.min(1_000, options.ttlMs / 5);
    this.maxEntries = options.maxEntries ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  /** The user's current snapshot (undefined: identity knows no such user). Rejects when identity cannot answer. */
  async get(userId: string): Promise<AccessSnapshot | undefined> {
    const entry = this.entries.get(userId);
    const now = this.now();
    if (entry && entry.until > now) {
      if (entry.until - now <= this.refreshAheadMs && !this.inFlight.has(userId)) {
        // A failure here is not this request's: the next one after the expiry asks again and gets it.
        this.fetch(userId).catch(() => undefined);
      }
      return entry.snapshot;
    }
    const pending = this.inFlight.get(userId);
    if (pending) return pending;
    return this.fetch(userId);
  }

  /** Forgets the user: the next request reads their state from identity. */
  evict(userId: string): void {
    this.entries.delete(userId);
    this.inFlight.delete(userId);
  }

  /** Forgets everyone (e.g. after the change stream was interrupted). */
  clear(): void {
    for (const userId of new Set([...this.entries.keys(), ...this.inFlight.keys()])) this.evict(userId);
  }

  get size(): number {
    return this.entries.size;
  }

  private fetch(userId: string): Promise<AccessSnapshot | undefined> {
    const promise: Promise<AccessSnapshot | undefined> = this.identity.getAccessSnapshot({ userId, accountId: '' }).then(
      (message) => {
        const snapshot = snapshotFromMessage(message);
        // Overtaken by a change event (evicted meanwhile): answer the requests that waited, but do not
        // keep a state that may predate the change.
        if (this.inFlight.get(userId) === promise) {
          this.inFlight.delete(userId);
          this.store(userId, snapshot);
        }
        return snapshot;
      },
      (error: unknown) => {
        if (this.inFlight.get(userId) === promise) this.inFlight.delete(userId);
        throw error;
      },
    );
    this.inFlight.set(userId, promise);
    return promise;
  }

  private store(userId: string, snapshot: AccessSnapshot | undefined): void {
    this.entries.delete(userId);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(userId, { snapshot, until: this.now() + this.ttlMs });
  }
}
