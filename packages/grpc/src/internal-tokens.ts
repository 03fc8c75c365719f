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
 * gateway's hot path costs a map lookup, not an Ed25519 signature. Keyed by audience and every principal field,
 * so a role change (a new snapshot) gets a new token at once.
 */
export class InternalTokens {
  private readonly signer: InternalTokenSigner;
  private readonly refreshBeforeMs: number;
  private readonly maxCached: number;
  private readonly now: () => number;
  // By audience, then by user id: ids are strings the snapshot hands out again and again, so their
  // hash is cached and a lookup costs no key building (a composite key cost ~1 us per call).
  private readonly byAudience = new Map<string, Map<string, CachedToken>>();
  private cachedCount = 0;

  constructor(options: InternalTokensOptions) {
    this.signer = new InternalTokenSigner(options);
    this.now = options.now ?? Date.now;
    this.refreshBeforeMs = Math.min(options.refreshBeforeMs ?? 15_000, this.signer.ttlMs / 2);
    this.maxCached = options.maxCached ?? 10_000;
  }

  /** A token for this service's own call to `audience`. */
  forService(audience: string): string {
    return this.cached(audience, '', undefined);
  }

  /** A token that carries `principal` to `audience`. */
  forPrincipal(audience: string, principal: identityV1.Principal): string {
    return this.cached(audience, principal.userId, principal);
  }

  /** A client's `internalToken` option for this service's own calls to `audience`. */
  serviceTokenFor(audience: string): () => string {
    return () => this.forService(audience);
  }

  private cached(audience: string, userId: string, principal: identityV1.Principal | undefined): string {
    let tokens = this.byAudience.get(audience);
    if (!tokens) {
      tokens = new Map();
      this.byAudience.set(audience, tokens);
    }
    const hit = tokens.get(userId);
    // Every field counts: a role change (a new snapshot) or another credential gets a new token at once.
    if (hit && hit.expiresAtMs - this.now() > this.refreshBeforeMs && samePrincipal(hit.principal, principal)) return hit.token;
    // Bounded: dropping everything when full re-signs each active principal once.
    if (!hit && this.cachedCount >= this.maxCached) {
      this.byAudience.clear();
      this.cachedCount = 0;
      tokens = new Map();
      this.byAudience.set(audience, tokens);
    }
    if (!hit) this.cachedCount++;
    const signed = this.signer.sign(audience, principal);
    tokens.set(userId, { ...signed, principal });
    return signed.token;
  }
}

interface CachedToken extends SignedToken {
  principal: identityV1.Principal | undefined;
}

function samePrincipal(a: identityV1.Principal | undefined, b: identityV1.Principal | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return a.userId === b.userId && a.accountId === b.accountId && a.role === b.role && a.via === b.via && a.username === b.username;
}
