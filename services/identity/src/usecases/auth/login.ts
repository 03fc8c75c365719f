import { forbidden, invalidCredentials, rateLimited } from '../../errors.js';
import { addressLimitKey } from '@stormhook/access';
import { canSignIn } from '../../domain/user.js';
import type { Clock } from '../../ports/clock.js';
import type { CredentialRepository, UserRepository } from '../../ports/repositories.js';
import { fail, ok, type Result } from '../../result.js';
import type { PasswordHasher } from '../../security/password-hasher.js';
import { randomToken } from '../../security/secrets.js';
import type { AttemptLimiter, AttemptPolicy, AttemptSubject } from './attempt-limiter.js';
import type { SessionTokens, TokenPair } from './session-tokens.js';

export interface LoginInput {
  username: unknown;
  password: unknown;
  /** The caller's network address as the gateway saw it; limits guessing across many usernames (IPv6 per /64). */
  address?: string;
}

export interface LoginPolicy {
  /** Failed logins per username; default 5 per 15 minutes. */
  perUser?: AttemptPolicy;
  /** Failed logins per address; default 30 per 15 minutes (offices share one address). */
  perAddress?: AttemptPolicy;
}

export interface LoginPorts {
  users: UserRepository;
  credentials: CredentialRepository;
  hasher: PasswordHasher;
  limiter: AttemptLimiter;
  tokens: SessionTokens;
  clock: Clock;
}

/** Longer inputs are refused before hashing: scrypt of a megabyte is a cheap way to burn our CPU. */
const MAX_PASSWORD = 1024;

/**
 * Username and password in, tokens out. Every failure looks the same to the caller and costs the same
 * time: an unknown username is checked against a dummy hash, so timing does not tell which usernames
 * exist. Attempts count per username and per address (successes are taken back out); while either is
 * over its limit even the right password is refused, so a lockout cannot confirm a guess.
 */
export class Login {
  private readonly perUser: AttemptPolicy;
  private readonly perAddress: AttemptPolicy;
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly ports: LoginPorts,
    policy: LoginPolicy = {},
  ) {
    this.perUser = policy.perUser ?? { limit: 5, windowMs: 15 * 60_000 };
    this.perAddress = policy.perAddress ?? { limit: 30, windowMs: 15 * 60_000 };
  }

  private subjects(username: string, address: string | undefined): AttemptSubject[] {
    const subjects: AttemptSubject[] = [{ scope: 'login-user', subject: username, policy: this.perUser }];
    if (address) subjects.push({ scope: 'login-address', subject: addressLimitKey(address), policy: this.perAddress });
    return subjects;
  }

  async login(input: LoginInput): Promise<Result<TokenPair>> {
    const { ports } = this;
    if (typeof input.username !== 'string' || typeof input.password !== 'string' || input.password.length > MAX_PASSWORD) {
      return fail(invalidCredentials());
    }
    const username = input.username.trim().toLowerCase();
    const password = input.password;
    const now = ports.clock.now();
    const subjects = this.subjects(username, input.address);

    // Counted before the password is checked, so a parallel burst of guesses cannot outrun the limit.
    const attempt = await ports.limiter.attempt(subjects, now);
    if (attempt.limited) return fail(rateLimited(attempt.retryAfterSeconds, 'Too many failed sign-in attempts, try again later'));

    const user = username.length > 0 && username.length <= 254 ? await ports.users.findByUsername(username) : undefined;
    const stored = user ? await ports.credentials.passwordHash(user.userId) : undefined;
    this.dummyHash ??= ports.hasher.hash(randomToken());
    const matches = await ports.hasher.verify(password, stored ?? (await this.dummyHash));
    if (!user || stored === undefined || !matches) return fail(invalidCredentials());
    // The password is right, so saying why the user cannot sign in reveals nothing to a guesser.
    if (!canSignIn(user.status)) return fail(forbidden(`This user is ${user.status.toLowerCase()} and cannot sign in`));

    // A success is no failure, and it wipes the user's earlier failures (not the address's).
    await ports.limiter.forgive(attempt.ticket);
    await ports.limiter.clear(subjects.slice(0, 1));
    if (ports.hasher.needsRehash(stored)) await ports.credentials.setPasswordHash(user.userId, await ports.hasher.hash(password), now);
    return ok(await ports.tokens.issue(user));
  }
}
