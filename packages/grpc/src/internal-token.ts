import { sign as signEd25519, verify as verifyEd25519, type KeyObject } from 'node:crypto';
import type { identityV1 } from '@stormhook/proto';
import { serviceSigningKey, servicePublicKeys, type PublicKeysByService } from './service-keys.js';

/**
 * Internal tokens: how a gRPC server knows who calls it. The server verifies the token and takes the
 * caller ONLY from it, never from the request message.
 *
 * Every calling service signs its tokens with its own Ed25519 private key (service-keys.ts); a
 * server holds the public keys of the services the edge table (edges.ts) lets call it, and checks a
 * token with the key of the issuer it names. So `iss` is proven, not claimed: a pod that holds the
 * query's key cannot sign in the gateway's name. A token that carries a customer (a principal) is
 * accepted only from the gateway, the one service that authenticates customers.
 *
 * The remaining trust limit: a pod that holds service X's private key can act as X on X's edges
 * (and, for the gateway's key, as any customer). Keys are bound to pods by the chart's Secrets, not
 * to the network identity of the caller; mTLS would additionally bind a key to that identity.
 *
 * Wire form: `s1.<base64url(JSON claims)>.<base64url(Ed25519 signature over "s1.<claims>")>`. Our
 * own format on both ends: one algorithm, no header to negotiate. Signing costs tens of
 * microseconds, so both ends cache: the signer reuses a token until shortly before it expires
 * (internal-tokens.ts), the verifier remembers the tokens it verified.
 */

/** gRPC metadata key that carries the token (lower case, as gRPC requires). */
export const INTERNAL_TOKEN_METADATA = 'x-stormhook-internal-token';

/** The one service whose tokens may carry a customer: it authenticates them. */
export const PRINCIPAL_ISSUER = 'gateway';

/** The caller a verified token names. */
export interface InternalCaller {
  /** The service that signed the token (`gateway`, `alarm-matcher`, ...). */
  readonly service: string;
  /** The customer the gateway acts for (its principal, role from the current snapshot); absent for a service's own call. */
  readonly principal?: identityV1.Principal;
}

interface Claims {
  /** Issuer: the signing service, whose public key the signature is checked with. */
  iss: string;
  /** Audience: the one service the token is good for. */
  aud: string;
  /** Issued at and expiry, in epoch milliseconds. */
  iat: number;
  exp: number;
  /** The principal: user id, account id, role, username, via. */
  p?: [string, string, string, string, string];
}

const TOKEN_PREFIX = 's1.';
const ED25519_SIGNATURE_BYTES = 64;

export interface SignerOptions {
  /** This service's name, the token's issuer. */
  issuer: string;
  /** This service's own Ed25519 private key (PKCS#8 PEM or a KeyObject). */
  key: string | KeyObject;
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
    this.key = serviceSigningKey(options.key);
    this.issuer = options.issuer;
    this.ttlMs = options.ttlMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  sign(audience: string, principal?: identityV1.Principal): SignedToken {
    if (principal && this.issuer !== PRINCIPAL_ISSUER)
      throw new Error(`${this.issuer} cannot sign a token that carries a customer: only the ${PRINCIPAL_ISSUER} does`);
    const iat = this.now();
    const claims: Claims = { iss: this.issuer, aud: audience, iat, exp: iat + this.ttlMs };
    if (principal) claims.p = [principal.userId, principal.accountId, principal.role, principal.username, principal.via];
    return { token: signClaims(claims, this.key), expiresAtMs: claims.exp };
  }
}

/** The token of `claims` signed with `key`: the one place the wire form is written. */
export function signClaims(claims: object, key: KeyObject): string {
  const signed = TOKEN_PREFIX + Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${signed}.${signEd25519(null, Buffer.from(signed), key).toString('base64url')}`;
}

export type RefusalReason = 'missing' | 'malformed' | 'signature' | 'principal-signer' | 'issuer' | 'audience' | 'expired';

export type VerifyOutcome = { ok: true; caller: InternalCaller; expiresAtMs: number } | { ok: false; reason: RefusalReason };

export interface VerifierOptions {
  /** This service's name: only tokens for it are accepted. */
  audience: string;
  /** The services that may call this one (`callersOf` of the edge table): a token from any other issuer is refused. */
  callers: readonly string[];
  /**
   * Public keys by service (SPKI PEM, two blocks during a rotation, or KeyObjects). Only the callers'
   * entries are used, and each caller must have one: a missing key throws at construction.
   */
  publicKeys: PublicKeysByService;
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
  readonly audience: string;
  /** The callers' public keys: an issuer not in here may not call this service. */
  private readonly callerKeys: ReadonlyMap<string, readonly KeyObject[]>;
  private readonly clockSkewMs: number;
  private readonly maxTtlMs: number;
  private readonly cacheSize: number;
  private readonly now: () => number;
  // Only tokens whose signature and claims checked out get in, so the cache cannot be filled with
  // forgeries that skip the signature check; expiry is still checked on every hit.
  private readonly verified = new Map<string, { caller: InternalCaller; expiresAtMs: number }>();

  constructor(options: VerifierOptions) {
    this.audience = options.audience;
    this.callerKeys = new Map(
      options.callers.map((caller) => {
        const keys = options.publicKeys[caller];
        if (keys === undefined) throw new Error(`no public key of ${caller}, which may call ${options.audience}`);
        return [caller, servicePublicKeys(keys)];
      }),
    );
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
    if (!token.startsWith(TOKEN_PREFIX) || dot <= TOKEN_PREFIX.length) return { ok: false, reason: 'malformed' };
    const signed = token.slice(0, dot);
    const claims = parseClaims(signed.slice(TOKEN_PREFIX.length));
    if (!claims) return { ok: false, reason: 'malformed' };
    // The issuer picks the key: one the edge table does not let call this service has none here.
    const keys = this.callerKeys.get(claims.iss);
    if (!keys) return { ok: false, reason: 'issuer' };
    if (!signedWith(keys, signed, token.slice(dot + 1))) return { ok: false, reason: 'signature' };
    // A customer only in the gateway's signature: it is the one that authenticated them.
    if (claims.p && claims.iss !== PRINCIPAL_ISSUER) return { ok: false, reason: 'principal-signer' };
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

function signedWith(keys: readonly KeyObject[], signed: string, signature: string): boolean {
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== ED25519_SIGNATURE_BYTES) return false;
  const data = Buffer.from(signed);
  return keys.some((key) => verifyEd25519(null, data, key, given));
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
