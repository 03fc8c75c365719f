import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { identityV1 } from '@stormhook/proto';

/**
 * Internal tokens: how a gRPC server knows who calls it. The gateway (for a customer's request) or a
 * service (for its own calls) signs a short-lived token with the shared internal key; the server
 * verifies it and takes the caller ONLY from it, never from the request message.
 *
 * Wire form: `v1.<base64url(JSON claims)>.<base64url(HMAC-SHA256(key, "v1.<claims>"))>`.
 * HMAC rather than a JWT library: the format is ours on both ends, there is one algorithm and no
 * header to negotiate, and one HMAC over ~200 bytes costs about a microsecond.
 */

/** gRPC metadata key that carries the token (lower case, as gRPC requires). */
export const INTERNAL_TOKEN_METADATA = 'x-stormhook-internal-token';

/** Shortest accepted key, in characters (32 random bytes in base64 are 44). */
export const INTERNAL_KEY_MIN_LENGTH = 32;

/** The caller a verified token names. */
export interface InternalCaller {
  /** The service that signed the token (`gateway`, `alarm-matcher`, ...). */
  readonly service: string;
  /** The customer the service acts for (the gateway's principal, role from the current snapshot); absent for a service's own call. */
  readonly principal?: identityV1.Principal;
}

interface Claims {
  /** Issuer: the signing service. */
  iss: string;
  /** Audience: the one service the token is good for. */
  aud: string;
  /** Issued at and expiry, in epoch milliseconds. */
  iat: number;
  exp: number;
  /** The principal: user id, account id, role, username, via. */
  p?: [string, string, string, string, string];
}

const PREFIX = 'v1.';

function mac(key: KeyObject, signed: string): Buffer {
  return createHmac('sha256', key).update(signed).digest();
}

/** The key as a KeyObject once, so each HMAC skips importing raw bytes. */
function keyBytes(key: string): KeyObject {
  if (key.length < INTERNAL_KEY_MIN_LENGTH) throw new Error(`the internal token key must have at least ${INTERNAL_KEY_MIN_LENGTH} characters`);
  return createSecretKey(Buffer.from(key, 'utf8'));
}

export interface SignerOptions {
  /** The shared internal key (INTERNAL_TOKEN_KEY). */
  key: string;
  /** This service's name, the token's issuer. */
  issuer: string;
  /** Lifetime of a token. Default 60 s. */
  ttlMs?: number;
  now?: () => number;
}

export interface SignedToken {
  readonly token: string;
  readonly expiresAtMs: number;
}

/** Signs tokens; callers normally use {@link InternalTokens}, which caches them. */
export class InternalTokenSigner {
  private readonly key: KeyObject;
  readonly issuer: string;
  readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: SignerOptions) {
    this.key = keyBytes(options.key);
    this.issuer = options.issuer;
    this.ttlMs = options.ttlMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  sign(audience: string, principal?: identityV1.Principal): SignedToken {
    const iat = this.now();
    const claims: Claims = { iss: this.issuer, aud: audience, iat, exp: iat + this.ttlMs };
    if (principal) claims.p = [principal.userId, principal.accountId, principal.role, principal.username, principal.via];
    const signed = PREFIX + Buffer.from(JSON.stringify(claims)).toString('base64url');
    return { token: `${signed}.${mac(this.key, signed).toString('base64url')}`, expiresAtMs: claims.exp };
  }
}

export type VerifyOutcome =
  { ok: true; caller: InternalCaller; expiresAtMs: number } | { ok: false; reason: 'missing' | 'malformed' | 'signature' | 'audience' | 'expired' };

export interface VerifierOptions {
  key: string;
  /** This service's name: only tokens for it are accepted. */
  audience: string;
  /** Accepted clock difference between signer and verifier. Default 5 s. */
  clockSkewMs?: number;
  /** Longest lifetime a token may claim, so a leaked signer cannot mint long-lived ones. Default 5 min. */
  maxTtlMs?: number;
  /** Verified tokens kept, so the gateway's cached tokens cost a map lookup. Default 10,000. */
  cacheSize?: number;
  now?: () => number;
}

/** Verifies tokens for one audience. */
export class InternalTokenVerifier {
  private readonly key: KeyObject;
  readonly audience: string;
  private readonly clockSkewMs: number;
  private readonly maxTtlMs: number;
  private readonly cacheSize: number;
  private readonly now: () => number;
  // Only tokens whose signature checked out get in, so the cache cannot be filled with forgeries
  // that skip the HMAC; expiry is still checked on every hit.
  private readonly verified = new Map<string, { caller: InternalCaller; expiresAtMs: number }>();

  constructor(options: VerifierOptions) {
    this.key = keyBytes(options.key);
    this.audience = options.audience;
    this.clockSkewMs = options.clockSkewMs ?? 5_000;
    this.maxTtlMs = options.maxTtlMs ?? 300_000;
    this.cacheSize = options.cacheSize ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  verify(token: string | undefined): VerifyOutcome {
    if (!token) return { ok: false, reason: 'missing' };
    const now = this.now();
    const cached = this.verified.get(token);
    if (cached) {
      if (cached.expiresAtMs + this.clockSkewMs > now) return { ok: true, ...cached };
      this.verified.delete(token);
      return { ok: false, reason: 'expired' };
    }
    const dot = token.lastIndexOf('.');
    if (!token.startsWith(PREFIX) || dot <= PREFIX.length) return { ok: false, reason: 'malformed' };
    const signed = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = mac(this.key, signed);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature' };
    const claims = parseClaims(signed.slice(PREFIX.length));
    if (!claims) return { ok: false, reason: 'malformed' };
    if (claims.aud !== this.audience) return { ok: false, reason: 'audience' };
    if (claims.exp + this.clockSkewMs <= now || claims.iat - this.clockSkewMs > now || claims.exp - claims.iat > this.maxTtlMs) {
      return { ok: false, reason: 'expired' };
    }
    const caller: InternalCaller = claims.p
      ? {
          service: claims.iss,
          principal: { userId: claims.p[0], accountId: claims.p[1], role: claims.p[2], username: claims.p[3], via: claims.p[4] },
        }
      : { service: claims.iss };
    // A full cache is dropped whole: a rare re-verification is cheaper than LRU bookkeeping per call.
    if (this.verified.size >= this.cacheSize) this.verified.clear();
    this.verified.set(token, { caller, expiresAtMs: claims.exp });
    return { ok: true, caller, expiresAtMs: claims.exp };
  }
}

function parseClaims(encoded: string): Claims | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const claims = value as Partial<Claims>;
  const isString = (v: unknown): v is string => typeof v === 'string';
  if (!isString(claims.iss) || !isString(claims.aud) || !Number.isFinite(claims.iat) || !Number.isFinite(claims.exp)) return undefined;
  if (claims.p !== undefined && !(Array.isArray(claims.p) && claims.p.length === 5 && claims.p.every(isString) && claims.p[0] !== '')) return undefined;
  return claims as Claims;
}
