import { randomUUID } from 'node:crypto';
import { invalidCredentials } from '../../errors.js';
import { isRole, tokensValidFrom, type Principal } from '@stormhook/access';
import { canSignIn, type User } from '../../domain/user.js';
import type { AccessChangePublisher } from '../../ports/access-changes.js';
import type { Clock } from '../../ports/clock.js';
import type { AccountRepository, RefreshTokenRepository, UserRepository } from '../../ports/repositories.js';
import { fail, ok, type Result } from '../../result.js';
import type { JwtSigner, JwtVerifier } from '../../security/jwt.js';
import { constantTimeEqual, randomId, randomToken, sha256 } from '../../security/secrets.js';

/** The login and refresh answer of the issue: `{username, type: "Bearer", accessToken, refreshToken, expiresIn}`. */
export interface TokenPair {
  username: string;
  type: 'Bearer';
  accessToken: string;
  refreshToken: string;
  /** Seconds until the access token expires. */
  expiresIn: number;
}

export interface SessionTokenOptions {
  /** Default 15 minutes: the longest a blocked user or a changed role can go unnoticed by local verifiers. */
  accessTtlSeconds?: number;
  /** Default 30 days of inactivity; every refresh starts the period again. */
  refreshTtlSeconds?: number;
}

export interface SessionTokenPorts {
  users: UserRepository;
  accounts: AccountRepository;
  refreshTokens: RefreshTokenRepository;
  signer: JwtSigner;
  verifier: JwtVerifier;
  accessChanges: AccessChangePublisher;
  clock: Clock;
}

/** Refresh tokens read `<tokenId>.<secret>`: the id finds the record, the secret is stored only hashed. */
function parseRefreshToken(token: unknown): { tokenId: string; secret: string } | undefined {
  if (typeof token !== 'string') return undefined;
  const m = /^([0-9a-f]{24})\.([A-Za-z0-9_-]{43})$/.exec(token);
  return m && m[1] !== undefined && m[2] !== undefined ? { tokenId: m[1], secret: m[2] } : undefined;
}

const SESSION_ENDED = 'The session has ended; sign in again';

/**
 * Access and refresh tokens. Access tokens are short-lived JWTs verified without a database read;
 * refresh tokens are opaque, single-use and rotate on every refresh. A refresh token presented a
 * second time (so someone kept a copy) revokes its whole family, ending the session for the thief and
 * the owner alike (OAuth 2.0 Security BCP, refresh token rotation).
 */
export class SessionTokens {
  private readonly accessTtl: number;
  private readonly refreshTtl: number;

  constructor(
    private readonly ports: SessionTokenPorts,
    options: SessionTokenOptions = {},
  ) {
    this.accessTtl = options.accessTtlSeconds ?? 15 * 60;
    this.refreshTtl = options.refreshTtlSeconds ?? 30 * 24 * 3600;
  }

  /** Starts a new session (family) for a user who just proved who they are. */
  async issue(user: User, familyId: string = randomUUID()): Promise<TokenPair> {
    const now = this.ports.clock.now();
    const account = await this.ports.accounts.findByUserId(user.userId);
    const { token: accessToken } = await this.ports.signer.sign(
      { sub: user.userId, role: user.role, usr: user.username, jti: randomUUID(), ...(account ? { acc: account.id } : {}) },
      now,
      this.accessTtl,
      user.accessTokensValidFrom,
    );
    const tokenId = randomId(12);
    const secret = randomToken(32);
    await this.ports.refreshTokens.insert({
      tokenId,
      familyId,
      userId: user.userId,
      secretHash: sha256(secret),
      issuedAt: now,
      expiresAt: new Date(now.getTime() + this.refreshTtl * 1000),
    });
    return { username: user.username, type: 'Bearer', accessToken, refreshToken: `${tokenId}.${secret}`, expiresIn: this.accessTtl };
  }

  async refresh(refreshToken: unknown): Promise<Result<TokenPair>> {
    const now = this.ports.clock.now();
    const parsed = parseRefreshToken(refreshToken);
    if (!parsed) return fail(invalidCredentials('Invalid refresh token'));
    const record = await this.ports.refreshTokens.findById(parsed.tokenId);
    // A wrong secret for a real id is a guess, not a replay: refuse without touching the family.
    if (!record || !constantTimeEqual(sha256(parsed.secret), record.secretHash)) return fail(invalidCredentials('Invalid refresh token'));
    if (record.revokedAt) return fail(invalidCredentials(SESSION_ENDED));
    if (record.rotatedAt) {
      await this.ports.refreshTokens.revokeFamily(record.familyId, now);
      return fail(invalidCredentials('This refresh token was already used; the session has been ended for safety'));
    }
    if (record.expiresAt.getTime() <= now.getTime()) return fail(invalidCredentials(SESSION_ENDED));
    const user = await this.ports.users.findById(record.userId);
    if (!user || !canSignIn(user.status)) {
      await this.ports.refreshTokens.revokeFamily(record.familyId, now);
      return fail(invalidCredentials(SESSION_ENDED));
    }
    // Two refreshes with the same token race here; exactly one wins, the other is treated as a replay.
    if (!(await this.ports.refreshTokens.markRotated(record.tokenId, now, record.expiresAt))) {
      await this.ports.refreshTokens.revokeFamily(record.familyId, now);
      return fail(invalidCredentials('This refresh token was already used; the session has been ended for safety'));
    }
    const pair = await this.issue(user, record.familyId);
    // A replay detected while we issued must not leave us handing out a live token of a dead session.
    if (await this.ports.refreshTokens.isFamilyRevoked(record.familyId)) return fail(invalidCredentials(SESSION_ENDED));
    return ok(pair);
  }

  /**
   * Ends the session of the token. Unknown or already ended tokens are fine: logging out twice is not an error.
   *
   * Logout names a refresh token, not an access token, and access tokens carry no session, so the
   * user's access tokens all end here (the one the client holds among them), not 15 minutes later.
   * Only this session's refresh token dies: the user's other sessions refresh once and go on.
   */
  async logout(refreshToken: unknown): Promise<Result<{ revoked: boolean }>> {
    const parsed = parseRefreshToken(refreshToken);
    if (!parsed) return ok({ revoked: false });
    const record = await this.ports.refreshTokens.findById(parsed.tokenId);
    if (!record || !constantTimeEqual(sha256(parsed.secret), record.secretHash)) return ok({ revoked: false });
    const now = this.ports.clock.now();
    await this.ports.refreshTokens.revokeFamily(record.familyId, now);
    // A session already ended ended its tokens then; a replayed logout must not end the new ones.
    if (record.revokedAt !== undefined) return ok({ revoked: false });
    await this.ports.users.endAccessTokens(record.userId, tokensValidFrom(now));
    await this.ports.accessChanges.changed(record.userId, 'SIGNED_OUT');
    return ok({ revoked: true });
  }

  /** The principal of a valid access token; no database read, so the gateway can do the same locally. */
  async verifyAccessToken(accessToken: unknown): Promise<Result<Principal>> {
    if (typeof accessToken !== 'string') return fail(invalidCredentials('Invalid access token'));
    const verified = await this.ports.verifier.verify(accessToken, this.ports.clock.now());
    if (!verified.ok) {
      return fail(invalidCredentials(verified.reason === 'expired' ? 'The access token has expired' : 'Invalid access token'));
    }
    const { sub, acc, role, usr } = verified.claims;
    if (!isRole(role)) return fail(invalidCredentials('Invalid access token'));
    return ok({ userId: sub, role, username: usr, via: 'access-token', ...(acc ? { accountId: acc } : {}) });
  }
}
