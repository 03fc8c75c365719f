import { createHash } from 'node:crypto';
import { GrpcError, GrpcStatus } from '@stormhook/grpc';
import type { identityV1 } from '@stormhook/proto';

export interface ApiKeyPort {
  verifyApiKey(request: identityV1.VerifyApiKeyRequest): Promise<identityV1.VerifyApiKeyResponse>;
}

export interface ApiKeyCacheOptions {
  /** How long a verified key is trusted without asking identity again; a revoked key works at most this long. */
  ttlMs?: number;
  /** How long an unknown key is refused without asking identity (keeps key-guessing floods off identity). */
  negativeTtlMs?: number;
  /** Entries kept at most; the oldest go first. */
  maxEntries?: number;
}

type Entry = { principal: identityV1.Principal | undefined; until: number };

/**
 * X-API-Key verification through identity with a short cache. Entries are keyed by a SHA-256 of the
 * key, so the key itself is not kept in memory after the call. A failure of identity itself is not
 * cached (it is thrown, and the caller gets a 503).
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly negativeTtlMs: number;
  private readonly maxEntries: number;

  constructor(
    private readonly identity: ApiKeyPort,
    options: ApiKeyCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.negativeTtlMs = options.negativeTtlMs ?? 5_000;
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  /** The principal of the key, or undefined when identity refuses it. */
  async verify(apiKey: string): Promise<identityV1.Principal | undefined> {
    const id = createHash('sha256').update(apiKey).digest('base64url');
    const now = Date.now();
    const cached = this.entries.get(id);
    if (cached && cached.until > now) return cached.principal;
    let principal: identityV1.Principal | undefined;
    try {
      principal = (await this.identity.verifyApiKey({ apiKey })).principal ?? undefined;
    } catch (error) {
      if (!(error instanceof GrpcError) || error.code !== GrpcStatus.UNAUTHENTICATED) throw error;
      principal = undefined;
    }
    this.entries.delete(id);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(id, { principal, until: now + (principal ? this.ttlMs : this.negativeTtlMs) });
    return principal;
  }
}
