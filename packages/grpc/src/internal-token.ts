import { createHmac, createSecretKey, sign as signEd25519, timingSafeEqual, verify as verifyEd25519, type KeyObject } from 'node:crypto';
import type { identityV1 } from '@stormhook/proto';
import { principalPublicKeys, principalSigningKey } from './principal-keys.js';

/**
 * Internal tokens: how a gRPC server knows who calls it. The server verifies the token and takes the
 * caller ONLY from it, never from the request message. Two kinds, told apart by their prefix:
 *
 * - A service token (`v1.`, no principal) is a service's own call, signed with the shared HMAC key
 *   (INTERNAL_TOKEN_KEY) that every pod holds. One HMAC over ~200 bytes costs about a microsecond.
 * - A principal token (`p1.`) carries the customer the gateway authenticated. It is signed with an
 *   Ed25519 private key ONLY the gateway holds (INTERNAL_PRINCIPAL_SIGNING_KEY); the services hold
 *   the public key. A principal in an HMAC-signed token is refused: that is exactly what any pod
 *   holding the shared key could forge.
 *
 * What the shared key still allows: a pod that holds it can sign a service token with any issuer it
 * likes, so `iss` is a claim, not a proof. The verifier accepts only issuers the edge table
 * (edges.ts) lets call its service, which bounds a forger to a service-level call on an existing
 * edge (e.g. naming itself `gateway` to ask identity for an access snapshot, or `alarm-matcher` to
 * store an account's webhook on the notifier). It can never act as a customer: no principal without
 * the gateway's private key. Closing the rest needs a key per service (or mTLS), not a shared one.
 *
 * Wire form: `<prefix><base64url(JSON claims)>.<base64url(signature over "<prefix><claims>")>`.
 * Our own format on both ends: one algorithm per prefix, no header to negotiate.
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

/** HMAC-SHA256 with the shared key: a service's own call. */
const SERVICE_PREFIX = 'v1.';
/** Ed25519 with the gateway's key: a call that carries a principal. */
const PRINCIPAL_PREFIX = 'p1.';
const ED25519_SIGNATURE_BYTES = 64;

function mac(key: KeyObject, signed: string): Buffer {
  return createHmac('sha256', key).update(signed).digest();
}

/** The key as a KeyObject once, so each HMAC skips importing raw bytes. */
function keyBytes(key: string): KeyObject {
  if (key.length < INTERNAL_KEY_MIN_LENGTH) throw new Error(`the internal token key must have at least ${INTERNAL_KEY_MIN_LENGTH} characters`);
  return createSecretKey(Buffer.from(key, 'utf8'));
}

export interface SignerOptions {
  /** The shared internal key (INTERNAL_TOKEN_KEY), for service tokens. */
  key: string;
  /**
   * The gateway's Ed25519 private key (INTERNAL_PRINCIPAL_SIGNING_KEY, PKCS#8 PEM or a KeyObject), for
   * tokens that carry a principal. Every other service leaves it out and signs service tokens only.
   */
  principalKey?: string | KeyObject;
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
  private readonly principalKey: KeyObject | undefined;
  readonly issuer: string;
  readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: SignerOptions) {
    this.key = keyBytes(options.key);
    this.principalKey = options.principalKey === undefined ? undefined : principalSigningKey(options.principalKey);
    this.issuer = options.issuer;
    this.ttlMs = options.ttlMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  sign(audience: string, principal?: identityV1.Principal): SignedToken {
    const iat = this.now();
    const claims: Claims = { iss: this.issuer, aud: audience, iat, exp: iat + this.ttlMs };
    const body = (prefix: string) => prefix + Buffer.from(JSON.stringify(claims)).toString('base64url');
    if (!principal) {
      const signed = body(SERVICE_PREFIX);
      return { token: `${signed}.${mac(this.key, signed).toString('base64url')}`, expiresAtMs: claims.exp };
    }
    if (!this.principalKey) throw new Error(`${this.issuer} holds no principal signing key: only the gateway signs tokens that carry a customer`);
    claims.p = [principal.userId, principal.accountId, principal.role, principal.username, principal.via];
    const signed = body(PRINCIPAL_PREFIX);
    return { token: `${signed}.${signEd25519(null, Buffer.from(signed), this.principalKey).toString('base64url')}`, expiresAtMs: claims.exp };
  }
}

export type RefusalReason = 'missing' | 'malformed' | 'signature' | 'principal-signer' | 'issuer' | 'audience' | 'expired';

export type VerifyOutcome = { ok: true; caller: InternalCaller; expiresAtMs: number } | { ok: false; reason: RefusalReason };

export interface VerifierOptions {
  /** The shared internal key (INTERNAL_TOKEN_KEY), for service tokens. */
  key: string;
  /**
   * The gateway's Ed25519 public key (INTERNAL_PRINCIPAL_PUBLIC_KEY, SPKI PEM or a KeyObject), for
   * principal tokens; during a key rotation two (PEM blocks one after the other, or a list).
   */
  principalKey: string | KeyObject | readonly KeyObject[];
  /** This service's name: only tokens for it are accepted. */
  audience: string;
  /** The services that may call this one (`callersOf` of the edge table): a token from any other issuer is refused. */
  callers: readonly string[];
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
  private readonly principalKeys: readonly KeyObject[];
  readonly audience: string;
  private readonly callers: ReadonlySet<string>;
  private readonly clockSkewMs: number;
  private readonly maxTtlMs: number;
  private readonly cacheSize: number;
  private readonly now: () => number;
  // Only tokens whose signature and claims checked out get in, so the cache cannot be filled with
  // forgeries that skip the signature check; expiry is still checked on every hit.
  private readonly verified = new Map<string, { caller: InternalCaller; expiresAtMs: number }>();

  constructor(options: VerifierOptions) {
    this.key = keyBytes(options.key);
    this.principalKeys = principalPublicKeys(options.principalKey);
    this.audience = options.audience;
    this.callers = new Set(options.callers);
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
    const byGateway = token.startsWith(PRINCIPAL_PREFIX);
    const prefix = byGateway ? PRINCIPAL_PREFIX : SERVICE_PREFIX;
    const dot = token.lastIndexOf('.');
    if (!token.startsWith(prefix) || dot <= prefix.length) return { ok: false, reason: 'malformed' };
    const signed = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    if (!(byGateway ? this.signedByGateway(signed, given) : this.signedWithSharedKey(signed, given))) return { ok: false, reason: 'signature' };
    const claims = parseClaims(signed.slice(prefix.length));
    if (!claims) return { ok: false, reason: 'malformed' };
    // A customer only in the gateway's signature: the shared key is in every pod.
    if (claims.p && !byGateway) return { ok: false, reason: 'principal-signer' };
    if (!this.callers.has(claims.iss)) return { ok: false, reason: 'issuer' };
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

  private signedWithSharedKey(signed: string, given: Buffer): boolean {
    const expected = mac(this.key, signed);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private signedByGateway(signed: string, given: Buffer): boolean {
    if (given.length !== ED25519_SIGNATURE_BYTES) return false;
    const data = Buffer.from(signed);
    return this.principalKeys.some((key) => verifyEd25519(null, data, key, given));
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
