import { forbidden, invalidCredentials, rateLimited } from '../../errors.js';
import { addressLimitKey } from '@stormhook/access';
import { canSignIn } from '../../domain/user.js';
import type { Clock } from '../../ports/clock.js';
import type { CredentialRepository, UserRepository } from '../../ports/repositories.js';
import { fail, ok, type Result } from '../../result.js';
import { HashQueueBusy } from '../../security/hash-memory-budget.js';
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
  /** Failed logins per username from one address; default 5 per 15 minutes. */
  perUserAddress?: AttemptPolicy;
  /** Failed logins per username from all addresses together; default 50 per 15 minutes. */
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
 * exist. Attempts count per (username, address), per username and per address (successes are taken
 * back out); while any is over its limit even the right password is refused, so a lockout cannot
 * confirm a guess. The tight limit is the pair's: five wrong passwords from one place lock that place
 * out, not the user's own sign-in from elsewhere; locking a user everywhere takes ten times as many
 * guesses spread over addresses (each of which also counts against its own address limit).
 */
export class Login {
  private readonly perUserAddress: AttemptPolicy;
  private readonly perUser: AttemptPolicy;
  private readonly perAddress: AttemptPolicy;
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly ports: LoginPorts,
    policy: LoginPolicy = {},
  ) {
    this.perUserAddress = policy.perUserAddress ?? { limit: 5, windowMs: 15 * 60_000 };
    this.perUser = policy.perUser ?? { limit: 50, windowMs: 15 * 60_000 };
    this.perAddress = policy.perAddress ?? { limit: 30, windowMs: 15 * 60_000 };
  }

  /** The user's own counters first (a success clears them), then the address's. */
  private subjects(username: string, address: string | undefined): AttemptSubject[] {
    // Without an address (an internal caller) the pair cannot be told apart: the tight limit applies to the username.
    if (!address) return [{ scope: 'login-user', subject: username, policy: this.perUserAddress }];
    const place = addressLimitKey(address);
    return [
      { scope: 'login-user-address', subject: `${username}|${place}`, policy: this.perUserAddress },
      { scope: 'login-user', subject: username, policy: this.perUser },
      { scope: 'login-address', subject: place, policy: this.perAddress },
    ];
  }

  /** The hash unknown users are checked against; made once, and again if making it was refused. */
  private dummy(): Promise<string> {
    this.dummyHash ??= this.ports.hasher.hash(randomToken()).catch((error: unknown) => {
      this.dummyHash = undefined;
      throw error;
    });
    return this.dummyHash;
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
    let matches: boolean;
    try {
      matches = await ports.hasher.verify(password, stored ?? (await this.dummy()));
    } catch (error) {
      if (!(error instanceof HashQueueBusy)) throw error;
      // Overloaded, not wrong: the attempt does not count, and the caller is told to come back.
      await ports.limiter.forgive(attempt.ticket);
      return fail(rateLimited(1, 'Sign-in is busy, try again in a moment'));
    }
    if (!user || stored === undefined || !matches) return fail(invalidCredentials());
    // The password is right, so saying why the user cannot sign in reveals nothing to a guesser.
    if (!canSignIn(user.status)) return fail(forbidden(`This user is ${user.status.toLowerCase()} and cannot sign in`));

    // A success is no failure, and it wipes the user's earlier failures (not the address's).
    await ports.limiter.forgive(attempt.ticket);
    await ports.limiter.clear(subjects.filter((subject) => subject.scope !== 'login-address'));
    if (ports.hasher.needsRehash(stored)) await ports.credentials.setPasswordHash(user.userId, await ports.hasher.hash(password), now);
    return ok(await ports.tokens.issue(user));
  }
}
