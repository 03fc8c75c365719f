import type { KeyObject } from 'node:crypto';
import { errors, jwtVerify, SignJWT, type JWTHeaderParameters, type JWTPayload } from 'jose';

/**
 * identity's access tokens: Ed25519-signed JWTs (RFC 8037 `EdDSA`), signed by identity and verified
 * by identity and, locally, by the gateway - both through this one helper, on `jose`. The accepted
 * algorithm is pinned: the header's `alg` is checked, never obeyed, so `none`, HS256 keyed with the
 * public key and every other substitution fail. Keys are selected by `kid`.
 */
export const ACCESS_TOKEN_ALG = 'EdDSA';
/** Far above any real token; refuses megabyte headers before any parsing. */
const MAX_TOKEN_LENGTH = 8192;

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

export type TokenRejection = 'malformed' | 'algorithm' | 'unknown-key' | 'signature' | 'issuer' | 'audience' | 'expired' | 'not-yet-valid' | 'claims';
export type TokenVerification = { ok: true; claims: AccessTokenClaims } | { ok: false; reason: TokenRejection };

export interface TokenAudience {
  issuer: string;
  audience: string;
}

export interface VerifyOptions extends TokenAudience {
  now: Date;
  /** Allowed clock difference between signer and verifier; default 30 s. */
  clockToleranceSeconds?: number;
}

/** Signs `claims` (times included) with `privateKey`, naming `kid` in the header. */
export function signAccessToken(claims: AccessTokenClaims, privateKey: KeyObject, kid: string): Promise<string> {
  return new SignJWT({ ...claims } as JWTPayload).setProtectedHeader({ alg: ACCESS_TOKEN_ALG, typ: 'JWT', kid }).sign(privateKey);
}

/** No key of the verifier has the token's kid. */
class UnknownKey extends Error {}

/** The rejection a jose error stands for. */
function rejectionOf(error: unknown): TokenRejection {
  if (error instanceof errors.JOSEAlgNotAllowed) return 'algorithm';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'signature';
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return 'issuer';
    if (error.claim === 'aud') return 'audience';
    if (error.claim === 'nbf' || error.claim === 'iat') return error.reason === 'check_failed' ? 'not-yet-valid' : 'claims';
    return 'claims';
  }
  if (error instanceof UnknownKey) return 'unknown-key';
  return 'malformed';
}

/**
 * Verifies signature, algorithm, issuer, audience and times (with the tolerance), and that the claims
 * the product reads have their types. `keys` maps kid to the Ed25519 public key (several during a
 * rotation). Every failure is a value; nothing throws.
 */
export async function verifyAccessToken(token: string, keys: ReadonlyMap<string, KeyObject>, options: VerifyOptions): Promise<TokenVerification> {
  if (token.length > MAX_TOKEN_LENGTH || token.split('.').length !== 3) return { ok: false, reason: 'malformed' };
  try {
    const { payload } = await jwtVerify(
      token,
      (header: JWTHeaderParameters) => {
        // Checked here too, before any key is chosen: jose's own `algorithms` check would come later.
        if (header.alg !== ACCESS_TOKEN_ALG) throw new errors.JOSEAlgNotAllowed('unexpected "alg"');
        if (header.typ !== undefined && header.typ !== 'JWT') throw new errors.JWSInvalid('unexpected "typ"');
        const key = typeof header.kid === 'string' ? keys.get(header.kid) : undefined;
        if (!key) throw new UnknownKey();
        return key;
      },
      {
        algorithms: [ACCESS_TOKEN_ALG],
        issuer: options.issuer,
        audience: options.audience,
        currentDate: options.now,
        clockTolerance: options.clockToleranceSeconds ?? 30,
        requiredClaims: ['exp', 'nbf', 'iat', 'sub', 'jti'],
      },
    );
    const { sub, role, usr, jti, acc, exp, nbf, iat } = payload as Record<string, unknown>;
    if (typeof sub !== 'string' || typeof role !== 'string' || typeof usr !== 'string' || typeof jti !== 'string') return { ok: false, reason: 'claims' };
    if (acc !== undefined && typeof acc !== 'string') return { ok: false, reason: 'claims' };
    if (typeof exp !== 'number' || typeof nbf !== 'number' || typeof iat !== 'number') return { ok: false, reason: 'claims' };
    // jose checks iat's type only; a token issued in the future is as suspect as one not yet valid.
    if (iat > options.now.getTime() / 1000 + (options.clockToleranceSeconds ?? 30)) return { ok: false, reason: 'not-yet-valid' };
    return { ok: true, claims: payload as unknown as AccessTokenClaims };
  } catch (error) {
    return { ok: false, reason: rejectionOf(error) };
  }
}
