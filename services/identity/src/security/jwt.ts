import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { issuedAtSeconds } from '@stormhook/access';
import { ACCESS_TOKEN_ALG, signAccessToken, verifyAccessToken, type AccessTokenClaims, type TokenAudience, type TokenVerification } from '@stormhook/tokens';

/**
 * identity's side of the access tokens: its keys, and signing and verifying through the helper the
 * gateway verifies with too (@stormhook/tokens, on jose; the algorithm is pinned to EdDSA there).
 */
export const JWT_ALG = ACCESS_TOKEN_ALG;
export type { AccessTokenClaims, TokenAudience, TokenRejection, TokenVerification } from '@stormhook/tokens';

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

  /** `validFrom`: the user's tokens count from there (logout, reset), so `iat` is never before it. */
  async sign(input: TokenClaimsInput, now: Date, ttlSeconds: number, validFrom?: Date): Promise<{ token: string; claims: AccessTokenClaims }> {
    const iat = issuedAtSeconds(now, validFrom);
    const claims: AccessTokenClaims = {
      ...input,
      iss: this.audience.issuer,
      aud: this.audience.audience,
      iat,
      nbf: iat,
      exp: iat + ttlSeconds,
    };
    return { token: await signAccessToken(claims, this.key.privateKey, this.key.kid), claims };
  }
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

  verify(token: string, now: Date): Promise<TokenVerification> {
    return verifyAccessToken(token, this.keys, { ...this.options, now });
  }
}
