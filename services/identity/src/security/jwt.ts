import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

/**
 * Ed25519-signed JWTs (RFC 8037 `EdDSA`), written against node:crypto only so that the gateway can
 * verify tokens locally with the same few lines. The accepted algorithm is hard-coded: the header's
 * `alg` is checked, never obeyed, so `none`, HS256-with-the-public-key and every other substitution fail.
 */
export const JWT_ALG = 'EdDSA';

export interface AccessTokenClaims {
  /** The userId. */
  sub: string;
  /** The accountId, when the user had an account at issue time. */
  acc?: string;
  role: string;
  /** The username (e-mail). */
  usr: string;
  iss: string;
  aud: string;
  iat: number;
  nbf: number;
  exp: number;
  jti: string;
}

export type TokenClaimsInput = Pick<AccessTokenClaims, 'sub' | 'role' | 'usr' | 'jti'> & { acc?: string };

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export interface VerificationKey {
  kid: string;
  publicKey: KeyObject;
}

export interface TokenAudience {
  issuer: string;
  audience: string;
}

export type TokenRejection =
  | 'malformed'
  | 'algorithm'
  | 'unknown-key'
  | 'signature'
  | 'issuer'
  | 'audience'
  | 'expired'
  | 'not-yet-valid'
  | 'claims';

export type TokenVerification = { ok: true; claims: AccessTokenClaims } | { ok: false; reason: TokenRejection };

const B64URL = /^[A-Za-z0-9_-]+$/;

function encodeJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

function decodeJson(part: string): unknown {
  if (!B64URL.test(part)) return undefined;
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

function requireEd25519(key: KeyObject, what: string): void {
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${what} must be an Ed25519 key, got ${key.asymmetricKeyType ?? key.type}`);
}

/** RFC 7638 thumbprint of the public key: a stable key id that needs no configuration. */
export function keyIdOf(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
  return createHash('sha256').update(canonical).digest('base64url');
}

/** A fresh key pair (tests, first start of a development stack). */
export function generateSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { kid: keyIdOf(publicKey), privateKey, publicKey };
}

/** The signing key from a PKCS#8 PEM (the form `openssl genpkey -algorithm ed25519` writes). */
export function signingKeyFromPem(pem: string, kid?: string): SigningKey {
  const privateKey = createPrivateKey(pem);
  requireEd25519(privateKey, 'the token signing key');
  const publicKey = createPublicKey(privateKey);
  return { kid: kid ?? keyIdOf(publicKey), privateKey, publicKey };
}

/** A verification key from an SPKI PEM, for verifiers that hold no private key (the gateway). */
export function verificationKeyFromPem(pem: string, kid?: string): VerificationKey {
  const publicKey = createPublicKey(pem);
  requireEd25519(publicKey, 'the token verification key');
  return { kid: kid ?? keyIdOf(publicKey), publicKey };
}

export function publicKeyPem(key: { publicKey: KeyObject }): string {
  return key.publicKey.export({ format: 'pem', type: 'spki' }).toString();
}

export class JwtSigner {
  constructor(
    private readonly key: SigningKey,
    private readonly audience: TokenAudience,
  ) {
    requireEd25519(key.privateKey, 'the token signing key');
  }

  get kid(): string {
    return this.key.kid;
  }

  sign(input: TokenClaimsInput, now: Date, ttlSeconds: number): { token: string; claims: AccessTokenClaims } {
    const iat = Math.floor(now.getTime() / 1000);
    const claims: AccessTokenClaims = {
      ...input,
      iss: this.audience.issuer,
      aud: this.audience.audience,
      iat,
      nbf: iat,
      exp: iat + ttlSeconds,
    };
    const signingInput = `${encodeJson({ alg: JWT_ALG, typ: 'JWT', kid: this.key.kid })}.${encodeJson(claims)}`;
    const signature = sign(null, Buffer.from(signingInput, 'ascii'), this.key.privateKey).toString('base64url');
    return { token: `${signingInput}.${signature}`, claims };
  }
}

function isNumericDate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

export interface VerifierOptions extends TokenAudience {
  /** Allowed clock difference between signer and verifier; default 30 s. */
  clockToleranceSeconds?: number;
}

/** Verifies tokens of every key in `keys` (several during a key rotation), selected by `kid`. */
export class JwtVerifier {
  private readonly keys: ReadonlyMap<string, KeyObject>;

  constructor(
    keys: readonly VerificationKey[],
    private readonly options: VerifierOptions,
  ) {
    for (const key of keys) requireEd25519(key.publicKey, `verification key ${key.kid}`);
    this.keys = new Map(keys.map((key) => [key.kid, key.publicKey]));
  }

  verify(token: string, now: Date): TokenVerification {
    const parts = token.split('.');
    if (parts.length !== 3 || token.length > 8192) return { ok: false, reason: 'malformed' };
    const [headerPart = '', payloadPart = '', signaturePart = ''] = parts;
    const header = decodeJson(headerPart) as { alg?: unknown; kid?: unknown; typ?: unknown; crit?: unknown } | undefined;
    if (typeof header !== 'object' || header === null || Array.isArray(header)) return { ok: false, reason: 'malformed' };
    if (header.alg !== JWT_ALG) return { ok: false, reason: 'algorithm' };
    // We understand no extension, so a token that makes one critical must be refused (RFC 7515 4.1.11).
    if (header.crit !== undefined || (header.typ !== undefined && header.typ !== 'JWT')) return { ok: false, reason: 'malformed' };
    const key = typeof header.kid === 'string' ? this.keys.get(header.kid) : undefined;
    if (!key) return { ok: false, reason: 'unknown-key' };
    if (!B64URL.test(signaturePart)) return { ok: false, reason: 'malformed' };
    const signature = Buffer.from(signaturePart, 'base64url');
    const signed = Buffer.from(`${headerPart}.${payloadPart}`, 'ascii');
    if (signature.length !== 64 || !verify(null, signed, key, signature)) return { ok: false, reason: 'signature' };

    const claims = decodeJson(payloadPart) as Partial<AccessTokenClaims> | undefined;
    if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return { ok: false, reason: 'malformed' };
    if (claims.iss !== this.options.issuer) return { ok: false, reason: 'issuer' };
    const aud: unknown = claims.aud;
    const audiences = Array.isArray(aud) ? aud : [aud];
    if (!audiences.includes(this.options.audience)) return { ok: false, reason: 'audience' };
    if (!isNumericDate(claims.exp) || !isNumericDate(claims.iat) || !isNumericDate(claims.nbf)) return { ok: false, reason: 'claims' };
    const nowSeconds = now.getTime() / 1000;
    const tolerance = this.options.clockToleranceSeconds ?? 30;
    if (claims.exp <= nowSeconds - tolerance) return { ok: false, reason: 'expired' };
    if (claims.nbf > nowSeconds + tolerance || claims.iat > nowSeconds + tolerance) return { ok: false, reason: 'not-yet-valid' };
    if (typeof claims.sub !== 'string' || typeof claims.role !== 'string' || typeof claims.usr !== 'string' || typeof claims.jti !== 'string') {
      return { ok: false, reason: 'claims' };
    }
    if (claims.acc !== undefined && typeof claims.acc !== 'string') return { ok: false, reason: 'claims' };
    return { ok: true, claims: claims as AccessTokenClaims };
  }
}
