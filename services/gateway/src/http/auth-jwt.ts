import { createPublicKey, type KeyObject } from 'node:crypto';
import { ACCESS_TOKEN_ALG, verifyAccessToken, type TokenRejection } from '@stormhook/tokens';

/**
 * Local verification of identity's access tokens through the helper identity signs and verifies
 * with (@stormhook/tokens, on jose; the algorithm is pinned to EdDSA there). Keys come from
 * identity's GetTokenKeys and are selected by `kid`.
 */
export { ACCESS_TOKEN_ALG };

export interface AccessTokenPrincipal {
  userId: string;
  accountId?: string;
  role: string;
  username: string;
}

/** `issuedAtSeconds`: the token's iat, which the access check compares with the user's valid-from instant. */
export type TokenCheck = { ok: true; principal: AccessTokenPrincipal; issuedAtSeconds: number } | { ok: false; reason: TokenRejection };

export interface TokenKeys {
  issuer: string;
  audience: string;
  /** kid to SPKI PEM. */
  keys: ReadonlyArray<{ kid: string; publicKeyPem: string }>;
}

/** A token whose signature and static claims passed; only its time claims are checked again. */
interface VerifiedToken {
  principal: AccessTokenPrincipal;
  exp: number;
  nbf: number;
  iat: number;
}

/**
 * Verified tokens remembered per verifier (so per key set: a key rotation starts afresh). A client
 * sends the same access token for up to its 15 minutes; an Ed25519 verification per request was the
 * JWT caller's largest cost beside the API key caller's. Bounded; forgotten wholesale when full.
 */
const MAX_VERIFIED_TOKENS = 10_000;

export class AccessTokenVerifier {
  private readonly keys: ReadonlyMap<string, KeyObject>;
  private readonly verified = new Map<string, VerifiedToken>();

  constructor(
    private readonly source: TokenKeys,
    /** Allowed clock difference between identity and the gateway. */
    private readonly toleranceSeconds = 30,
  ) {
    const keys = new Map<string, KeyObject>();
    for (const { kid, publicKeyPem } of source.keys) {
      const key = createPublicKey(publicKeyPem);
      if (key.asymmetricKeyType !== 'ed25519') throw new Error(`token key ${kid} is not an Ed25519 key`);
      keys.set(kid, key);
    }
    this.keys = keys;
  }

  hasKey(kid: string): boolean {
    return this.keys.has(kid);
  }

  /** The `kid` a token names, without verifying anything (to decide whether to refresh the keys). */
  static kidOf(token: string): string | undefined {
    const part = token.split('.')[0] ?? '';
    if (!/^[A-Za-z0-9_-]+$/.test(part) || part.length > 2048) return undefined;
    try {
      const header: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
      const kid = typeof header === 'object' && header !== null ? (header as Record<string, unknown>)['kid'] : undefined;
      return typeof kid === 'string' ? kid : undefined;
    } catch {
      return undefined;
    }
  }

  async verify(token: string, now: Date): Promise<TokenCheck> {
    const known = this.verified.get(token);
    if (known) return this.checkTimes(known, now);
    const checked = await verifyAccessToken(token, this.keys, {
      issuer: this.source.issuer,
      audience: this.source.audience,
      now,
      clockToleranceSeconds: this.toleranceSeconds,
    });
    if (!checked.ok) return checked;
    const { sub, role, usr, acc, exp, nbf, iat } = checked.claims;
    const remembered: VerifiedToken = { principal: { userId: sub, role, username: usr, ...(acc ? { accountId: acc } : {}) }, exp, nbf, iat };
    if (this.verified.size >= MAX_VERIFIED_TOKENS) this.verified.clear();
    this.verified.set(token, remembered);
    return this.checkTimes(remembered, now);
  }

  private checkTimes(token: VerifiedToken, now: Date): TokenCheck {
    const nowSeconds = now.getTime() / 1000;
    if (token.exp <= nowSeconds - this.toleranceSeconds) return { ok: false, reason: 'expired' };
    if (token.nbf > nowSeconds + this.toleranceSeconds || token.iat > nowSeconds + this.toleranceSeconds) return { ok: false, reason: 'not-yet-valid' };
    return { ok: true, principal: token.principal, issuedAtSeconds: token.iat };
  }
}
