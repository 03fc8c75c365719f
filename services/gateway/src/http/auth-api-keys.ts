import { createHash } from 'node:crypto';
import { GrpcError, GrpcStatus } from '@stormhook/grpc';
import type { identityV1 } from '@stormhook/proto';

export interface ApiKeyPort {
  verifyApiKey(request: identityV1.VerifyApiKeyRequest): Promise<identityV1.VerifyApiKeyResponse>;
}

export interface ApiKeyCacheOptions {
  /** How long a verified key is trusted without asking identity again; a revocation event evicts it sooner. */
  ttlMs?: number;
  /** How long before its expiry a key in use is verified again in the background. Default a fifth of ttlMs, at most 5 s. */
  refreshAheadMs?: number;
  /** How long an unknown key is refused without asking identity (keeps key-guessing floods off identity). */
  negativeTtlMs?: number;
  /** Verified keys kept at most; the oldest go first. Unknown keys never take these places. */
  maxEntries?: number;
  /** Unknown keys remembered at most, in a cache of their own; the oldest go first. */
  maxNegativeEntries?: number;
  now?: () => number;
}

/** Who a verified key speaks for. Role and status are not here: they come from the user's access snapshot. */
export interface VerifiedKey {
  principal: identityV1.Principal;
  keyId: string;
}

type Entry = VerifiedKey & { until: number; expiresAt: number };

/** A bounded map whose oldest insertion goes first. */
class Bounded<V> {
  readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  set(key: string, value: V): void {
    this.map.delete(key);
    if (this.map.size >= this.max) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
    this.map.set(key, value);
  }
}

/**
 * X-API-Key verification through identity, cached in memory. Entries are keyed by a SHA-256 of the
 * key, so the key itself is not kept after the call. Verified keys and unknown keys live in two
 * separate bounded caches: a flood of random keys only churns the negative cache and can never push
 * a customer's valid key out (which would send every one of their requests to identity again).
 * A revocation (identity.user-changed.v1 API_KEY_REVOKED) evicts the key at once; a key is never
 * trusted past its own expiry. A failure of identity itself is not cached (it is thrown: 503).
 */
export class ApiKeyCache {
  private readonly verified: Bounded<Entry>;
  private readonly unknown: Bounded<number>;
  /** Verifications under way, by key hash. */
  private readonly inFlight = new Map<string, Promise<VerifiedKey | undefined>>();
  /** Counts evictions, so a verification that one overtook is not remembered. */
  private generation = 0;
  private readonly ttlMs: number;
  private readonly refreshAheadMs: number;
  private readonly negativeTtlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly identity: ApiKeyPort,
    options: ApiKeyCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.refreshAheadMs = options.refreshAheadMs ?? Math.min(5_000, this.ttlMs / 5);
    this.negativeTtlMs = options.negativeTtlMs ?? 5_000;
    this.verified = new Bounded(options.maxEntries ?? 10_000);
    this.unknown = new Bounded(options.maxNegativeEntries ?? 10_000);
    this.now = options.now ?? Date.now;
  }

  /** The key's principal and id, or undefined when identity refuses it. */
  async verify(apiKey: string): Promise<VerifiedKey | undefined> {
    const id = createHash('sha256').update(apiKey).digest('base64url');
    const now = this.now();
    const known = this.verified.map.get(id);
    if (known && known.until > now) {
      // Near the end of its trust the key is checked again in the background, so its requests never
      // wait for identity in the steady state (a key's own expiry is final: nothing to refresh). No
      // entry is used past its end either way; a failure is met by the next request after it.
      if (known.until < known.expiresAt && known.until - now <= this.refreshAheadMs && !this.inFlight.has(id)) this.fetch(id, apiKey).catch(() => undefined);
      return known;
    }
    const refusedUntil = this.unknown.map.get(id);
    if (refusedUntil !== undefined && refusedUntil > now) return undefined;
    // Concurrent requests with the same key share one call to identity.
    return this.inFlight.get(id) ?? this.fetch(id, apiKey);
  }

  private fetch(id: string, apiKey: string): Promise<VerifiedKey | undefined> {
    const generation = this.generation;
    const done = () => {
      if (this.inFlight.get(id) === call) this.inFlight.delete(id);
    };
    const call: Promise<VerifiedKey | undefined> = this.ask(apiKey).then(
      (answer) => {
        done();
        // A revocation (or a new key) seen while this call was out: its answer may predate it, so it
        // is given to the requests that waited but not remembered.
        const current = generation === this.generation;
        const now = this.now();
        if (!answer?.principal) {
          if (current) {
            this.verified.map.delete(id);
            this.unknown.set(id, now + this.negativeTtlMs);
          }
          return undefined;
        }
        const expiresAt = answer.expiresAtEpochMs !== undefined ? Number(answer.expiresAtEpochMs) : Number.POSITIVE_INFINITY;
        const entry: Entry = { principal: answer.principal, keyId: answer.keyId, until: Math.min(now + this.ttlMs, expiresAt), expiresAt };
        if (current) {
          this.unknown.map.delete(id);
          this.verified.set(id, entry);
        }
        return entry;
      },
      (error: unknown) => {
        done();
        throw error;
      },
    );
    this.inFlight.set(id, call);
    return call;
  }

  /** identity's answer; undefined when it refuses the key. */
  private async ask(apiKey: string): Promise<identityV1.VerifyApiKeyResponse | undefined> {
    try {
      return await this.identity.verifyApiKey({ apiKey });
    } catch (error) {
      if (!(error instanceof GrpcError) || error.code !== GrpcStatus.UNAUTHENTICATED) throw error;
      return undefined;
    }
  }

  /** Drops a revoked key, so its next request asks identity (and is refused). */
  evictKey(keyId: string): void {
    this.generation++;
    for (const [id, entry] of this.verified.map) if (entry.keyId === keyId) this.verified.map.delete(id);
  }

  /**
   * Forgets the unknown keys: a key created just now may have been tried (and refused) a moment
   * before it existed. Cheap: only the negative cache is emptied.
   */
  forgetUnknown(): void {
    this.generation++;
    this.unknown.map.clear();
  }

  get sizes(): { verified: number; unknown: number } {
    return { verified: this.verified.map.size, unknown: this.unknown.map.size };
  }
}
