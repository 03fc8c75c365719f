import { randomUUID } from 'node:crypto';
import { tokensValidFrom } from '@stormhook/access';
import { expired, validation } from '../../errors.js';
import { email, uuid } from '../../domain/fields.js';
import type { MessageRequest } from '../../domain/message-request.js';
import type { AccessChangePublisher } from '../../ports/access-changes.js';
import type { Clock } from '../../ports/clock.js';
import type { MessagePublisher } from '../../ports/message-publisher.js';
import type { CredentialRepository, OneTimeTokenRepository, RefreshTokenRepository, UserRepository } from '../../ports/repositories.js';
import { fail, ok, type Result } from '../../result.js';
import type { PasswordHasher } from '../../security/password-hasher.js';
import { sha256 } from '../../security/secrets.js';
import type { AttemptLimiter, AttemptPolicy } from '../auth/attempt-limiter.js';
import { withParams, type LinkPolicy } from '../links.js';
import { issueOneTimeToken } from '../one-time-tokens.js';
import { password as passwordField } from './user-fields.js';

export interface PasswordResetRequestInput {
  username: unknown;
  /** The page the e-mail links to; it receives `userId` and `token` parameters. */
  resetPageLink: unknown;
}

/**
 * What happened, for logs and tests only. The transport answers 202 in every case: telling the
 * caller would reveal which usernames exist.
 */
export type PasswordResetRequestOutcome =
  { sent: true; message: MessageRequest } | { sent: false; reason: 'unknown-user' | 'cannot-sign-in' | 'too-many-requests' };

/** interface.md 4.18. */
export interface PasswordResetInput {
  userId: unknown;
  token: unknown;
  newPassword: unknown;
  loginPageLink?: unknown;
}

export interface PasswordResetOutcome {
  userId: string;
  message: string;
  /** loginPageLink with the `message` parameter, when a link was given: the transport redirects there. */
  redirectTo?: string;
}

export interface PasswordResetPorts {
  users: UserRepository;
  credentials: CredentialRepository;
  oneTimeTokens: OneTimeTokenRepository;
  refreshTokens: RefreshTokenRepository;
  hasher: PasswordHasher;
  messages: MessagePublisher;
  links: LinkPolicy;
  limiter: AttemptLimiter;
  accessChanges: AccessChangePublisher;
  clock: Clock;
}

export interface PasswordResetOptions {
  /** Default 1 hour. */
  tokenTtlMs?: number;
  /** Reset e-mails per user; default 5 per hour, so nobody can flood a mailbox through us. */
  perUser?: AttemptPolicy;
}

const INVALID_TOKEN = 'The password reset link is invalid, already used or expired; request a new one';
export const PASSWORD_CHANGED_MESSAGE = 'Your password has been changed. You can now sign in.';

/**
 * Password reset by e-mail: a single-use token with an expiry, stored as a hash. A successful reset
 * ends every session and access token of the user, and proves the mailbox is theirs (emailVerified). An invitation
 * token (CreateUser) is redeemed the same way and also activates the invited user.
 */
export class PasswordReset {
  private readonly tokenTtlMs: number;
  private readonly perUser: AttemptPolicy;

  constructor(
    private readonly ports: PasswordResetPorts,
    options: PasswordResetOptions = {},
  ) {
    this.tokenTtlMs = options.tokenTtlMs ?? 3600_000;
    this.perUser = options.perUser ?? { limit: 5, windowMs: 3600_000 };
  }

  /**
   * What a caller may be told about a reset request: only whether its input is well formed. Decided
   * without touching users or the database, so it takes the same time whether the user exists or not;
   * transport answers after this and runs {@link requestReset} without waiting for it.
   */
  checkRequest(input: PasswordResetRequestInput): Result<{ username: string; page: URL }> {
    const username = email('username', input.username);
    if (!username.ok) return username;
    const page = this.ports.links.check('resetPageLink', input.resetPageLink);
    if (!page.ok) return page;
    return ok({ username: username.value, page: page.value });
  }

  async requestReset(input: PasswordResetRequestInput): Promise<Result<PasswordResetRequestOutcome>> {
    const { ports } = this;
    const checked = this.checkRequest(input);
    if (!checked.ok) return checked;
    const username = { value: checked.value.username };
    const page = { value: checked.value.page };

    const now = ports.clock.now();
    const subjects = [{ scope: 'reset-user', subject: username.value, policy: this.perUser }];
    if ((await ports.limiter.attempt(subjects, now)).limited) return ok({ sent: false, reason: 'too-many-requests' });

    const user = await ports.users.findByUsername(username.value);
    if (!user) return ok({ sent: false, reason: 'unknown-user' });
    if (user.status !== 'ACTIVE') return ok({ sent: false, reason: 'cannot-sign-in' });

    const { token, expiresAt } = await issueOneTimeToken(ports.oneTimeTokens, user.userId, 'password-reset', this.tokenTtlMs, now);
    const message: MessageRequest = {
      messageId: randomUUID(),
      channel: 'email',
      to: user.username,
      template: 'password-reset',
      locale: user.locale,
      userId: user.userId,
      params: { link: withParams(page.value, { userId: user.userId, token }), expiresAt: expiresAt.toISOString(), firstName: user.firstName },
    };
    await ports.messages.publish(message);
    return ok({ sent: true, message });
  }

  async resetPassword(input: PasswordResetInput): Promise<Result<PasswordResetOutcome>> {
    const { ports } = this;
    const userId = uuid('userId', input.userId);
    if (!userId.ok) return userId;
    if (typeof input.token !== 'string' || input.token.length === 0 || input.token.length > 2048) {
      return fail(validation('token', 'must be the token of the reset link'));
    }
    const newPassword = passwordField('newPassword', input.newPassword);
    if (!newPassword.ok) return newPassword;
    const page = input.loginPageLink === undefined || input.loginPageLink === null ? undefined : ports.links.check('loginPageLink', input.loginPageLink);
    if (page && !page.ok) return page;

    const now = ports.clock.now();
    const tokenHash = sha256(input.token);
    const record = await ports.oneTimeTokens.findByHash(tokenHash);
    if (!record || record.userId !== userId.value || record.usedAt || record.expiresAt.getTime() <= now.getTime()) {
      return fail(expired(INVALID_TOKEN));
    }
    const user = await ports.users.findById(record.userId);
    const allowed = user && (user.status === 'ACTIVE' || (record.purpose === 'invitation' && user.status === 'INACTIVE'));
    if (!user || !allowed) return fail(expired(INVALID_TOKEN));

    // Hash first, then claim the token: the claim is the point of no return, the hash the slow part.
    const hash = await ports.hasher.hash(newPassword.value);
    if (!(await ports.oneTimeTokens.consume(tokenHash, now))) return fail(expired(INVALID_TOKEN));
    await ports.credentials.setPasswordHash(user.userId, hash, now);
    await ports.users.update(
      user.userId,
      { emailVerified: true, ...(record.purpose === 'invitation' && user.status === 'INACTIVE' ? { status: 'ACTIVE' } : {}) },
      now,
    );
    await ports.refreshTokens.revokeAllOfUser(user.userId, now);
    // The clock read again: `now` predates the hash, and a token issued meanwhile must end too.
    await ports.users.endAccessTokens(user.userId, tokensValidFrom(ports.clock.now()));
    await ports.oneTimeTokens.invalidateAll(user.userId, now);
    // An invitation accepted here makes the user ACTIVE.
    await ports.accessChanges.changed(user.userId, 'PASSWORD_RESET');

    return ok({
      userId: user.userId,
      message: PASSWORD_CHANGED_MESSAGE,
      ...(page?.ok ? { redirectTo: withParams(page.value, { message: PASSWORD_CHANGED_MESSAGE }) } : {}),
    });
  }
}
