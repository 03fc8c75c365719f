import type { identityV1 } from '@stormhook/proto';
import { InternalTokenSigner, type SignedToken, type SignerOptions } from './internal-token.js';

export interface InternalTokensOptions extends SignerOptions {
  /** A cached token is replaced this long before it expires, so it never arrives expired. Default 15 s. */
  refreshBeforeMs?: number;
  /** Most tokens kept (one per principal and audience). Default 10,000. */
  maxCached?: number;
}

/**
 * The tokens one service sends, signed once and reused until shortly before expiry: a request on the
 * gateway's hot path costs a map lookup, not an HMAC. Keyed by audience and every principal field,
 * so a role change (a new snapshot) gets a new token at once.
 */
export class InternalTokens {
  private readonly signer: InternalTokenSigner;
  private readonly refreshBeforeMs: number;
  private readonly maxCached: number;
  private readonly now: () => number;
  private readonly cache = new Map<string, SignedToken>();

  constructor(options: InternalTokensOptions) {
    this.signer = new InternalTokenSigner(options);
    this.now = options.now ?? Date.now;
    this.refreshBeforeMs = Math.min(options.refreshBeforeMs ?? 15_000, this.signer.ttlMs / 2);
    this.maxCached = options.maxCached ?? 10_000;
  }

  /** A token for this service's own call to `audience`. */
  forService(audience: string): string {
    return this.cached(audience, audience);
  }

  /** A token that carries `principal` to `audience`. */
  forPrincipal(audience: string, principal: identityV1.Principal): string {
    const key = `${audience}\n${principal.userId}\n${principal.accountId}\n${principal.role}\n${principal.via}\n${principal.username}`;
    return this.cached(key, audience, principal);
  }

  /** A client's `internalToken` option for this service's own calls to `audience`. */
  serviceTokenFor(audience: string): () => string {
    return () => this.forService(audience);
  }

  private cached(key: string, audience: string, principal?: identityV1.Principal): string {
    const hit = this.cache.get(key);
    if (hit && hit.expiresAtMs - this.now() > this.refreshBeforeMs) return hit.token;
    // Bounded: dropping everything when full re-signs each active principal once (about 2 us each).
    if (!hit && this.cache.size >= this.maxCached) this.cache.clear();
    const signed = this.signer.sign(audience, principal);
    this.cache.set(key, signed);
    return signed.token;
  }
}
