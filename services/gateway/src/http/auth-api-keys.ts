import { createHash } from 'node:crypto';
import { GrpcError, GrpcStatus } from '@stormhook/grpc';
import type { identityV1 } from '@stormhook/proto';

export interface ApiKeyPort {
  verifyApiKey(request: identityV1.VerifyApiKeyRequest): Promise<identityV1.VerifyApiKeyResponse>;
}

export interface ApiKeyCacheOptions {
  /** How long a verified key is trusted without asking identity again; a revocation event evicts it sooner. */
  ttlMs?: number;
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

type Entry = VerifiedKey & { until: number };

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
  private readonly ttlMs: number;
  private readonly negativeTtlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly identity: ApiKeyPort,
    options: ApiKeyCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 30_000;
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
    if (known && known.until > now) return known;
    const refusedUntil = this.unknown.map.get(id);
    if (refusedUntil !== undefined && refusedUntil > now) return undefined;
    let answer: identityV1.VerifyApiKeyResponse | undefined;
    try {
      answer = await this.identity.verifyApiKey({ apiKey });
    } catch (error) {
      if (!(error instanceof GrpcError) || error.code !== GrpcStatus.UNAUTHENTICATED) throw error;
    }
    this.verified.map.delete(id);
    if (!answer?.principal) {
      this.unknown.set(id, now + this.negativeTtlMs);
      return undefined;
    }
    this.unknown.map.delete(id);
    const expiresAt = answer.expiresAtEpochMs !== undefined ? Number(answer.expiresAtEpochMs) : Number.POSITIVE_INFINITY;
    const entry: Entry = { principal: answer.principal, keyId: answer.keyId, until: Math.min(now + this.ttlMs, expiresAt) };
    this.verified.set(id, entry);
    return entry;
  }

  /** Drops a revoked key, so its next request asks identity (and is refused). */
  evictKey(keyId: string): void {
    for (const [id, entry] of this.verified.map) if (entry.keyId === keyId) this.verified.map.delete(id);
  }

  /**
   * Forgets the unknown keys: a key created just now may have been tried (and refused) a moment
   * before it existed. Cheap: only the negative cache is emptied.
   */
  forgetUnknown(): void {
    this.unknown.map.clear();
  }

  get sizes(): { verified: number; unknown: number } {
    return { verified: this.verified.map.size, unknown: this.unknown.map.size };
  }
}
