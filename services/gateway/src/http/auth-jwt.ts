import { createPublicKey, verify, type KeyObject } from 'node:crypto';

/**
 * Local verification of identity's access tokens (Ed25519 JWS, RFC 8037 `EdDSA`), with node:crypto
 * only. The algorithm is hard-coded: the header's `alg` is checked, never obeyed, so `none`,
 * HS256-keyed-with-the-public-key and every other substitution fail. Keys come from identity's
 * GetTokenKeys and are selected by `kid`.
 */
export const ACCESS_TOKEN_ALG = 'EdDSA';

export interface AccessTokenPrincipal {
  userId: string;
  accountId?: string;
  role: string;
  username: string;
}

export type TokenCheck =
  | { ok: true; principal: AccessTokenPrincipal }
  | { ok: false; reason: 'malformed' | 'algorithm' | 'unknown-key' | 'signature' | 'issuer' | 'audience' | 'expired' | 'not-yet-valid' | 'claims' };

export interface TokenKeys {
  issuer: string;
  audience: string;
  /** kid to SPKI PEM. */
  keys: ReadonlyArray<{ kid: string; publicKeyPem: string }>;
}

const B64URL = /^[A-Za-z0-9_-]+$/;
/** Far above any real token; refuses megabyte headers before any parsing. */
const MAX_TOKEN_LENGTH = 8192;

function decodeJson(part: string): Record<string, unknown> | undefined {
  if (!B64URL.test(part)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const isNumericDate = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

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
    const header = decodeJson(token.split('.')[0] ?? '');
    return typeof header?.['kid'] === 'string' ? header['kid'] : undefined;
  }

  verify(token: string, now: Date): TokenCheck {
    const known = this.verified.get(token);
    if (known) return this.checkTimes(known, now);
    const checked = this.verifyFully(token);
    if (!checked.ok) return checked;
    if (this.verified.size >= MAX_VERIFIED_TOKENS) this.verified.clear();
    this.verified.set(token, checked.token);
    return this.checkTimes(checked.token, now);
  }

  private checkTimes(token: VerifiedToken, now: Date): TokenCheck {
    const nowSeconds = now.getTime() / 1000;
    if (token.exp <= nowSeconds - this.toleranceSeconds) return { ok: false, reason: 'expired' };
    if (token.nbf > nowSeconds + this.toleranceSeconds || token.iat > nowSeconds + this.toleranceSeconds) return { ok: false, reason: 'not-yet-valid' };
    return { ok: true, principal: token.principal };
  }

  /** Signature and every claim but the times. */
  private verifyFully(token: string): { ok: true; token: VerifiedToken } | Extract<TokenCheck, { ok: false }> {
    const parts = token.split('.');
    if (parts.length !== 3 || token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: 'malformed' };
    const [headerPart = '', payloadPart = '', signaturePart = ''] = parts;
    const header = decodeJson(headerPart);
    if (!header) return { ok: false, reason: 'malformed' };
    if (header['alg'] !== ACCESS_TOKEN_ALG) return { ok: false, reason: 'algorithm' };
    // No extension is understood, so a token that makes one critical is refused (RFC 7515 4.1.11).
    if (header['crit'] !== undefined || (header['typ'] !== undefined && header['typ'] !== 'JWT')) return { ok: false, reason: 'malformed' };
    const key = typeof header['kid'] === 'string' ? this.keys.get(header['kid']) : undefined;
    if (!key) return { ok: false, reason: 'unknown-key' };
    if (!B64URL.test(signaturePart)) return { ok: false, reason: 'malformed' };
    const signature = Buffer.from(signaturePart, 'base64url');
    if (signature.length !== 64 || !verify(null, Buffer.from(`${headerPart}.${payloadPart}`, 'ascii'), key, signature)) {
      return { ok: false, reason: 'signature' };
    }
    const claims = decodeJson(payloadPart);
    if (!claims) return { ok: false, reason: 'malformed' };
    if (claims['iss'] !== this.source.issuer) return { ok: false, reason: 'issuer' };
    const aud = claims['aud'];
    if (!(Array.isArray(aud) ? aud : [aud]).includes(this.source.audience)) return { ok: false, reason: 'audience' };
    const { exp, nbf, iat } = claims;
    if (!isNumericDate(exp) || !isNumericDate(nbf) || !isNumericDate(iat)) return { ok: false, reason: 'claims' };
    const { sub, role, usr, acc } = claims;
    if (typeof sub !== 'string' || typeof role !== 'string' || typeof usr !== 'string') return { ok: false, reason: 'claims' };
    if (acc !== undefined && typeof acc !== 'string') return { ok: false, reason: 'claims' };
    return { ok: true, token: { principal: { userId: sub, role, username: usr, ...(acc ? { accountId: acc } : {}) }, exp, nbf, iat } };
  }
}
