import type { Account, AccountProfile, PhoneActivation } from '../domain/account.js';
import type { Role } from '@stormhook/access';
import type { Subscription } from '../domain/subscription.js';
import type { User, UserStatus } from '../domain/user.js';

/**
 * Persistence ports of the use cases. Every method is one single-document operation (or a read), as
 * the embedded database has no transactions: where two writes belong together, the second one is
 * written so that repeating the whole operation repairs a half-done first attempt.
 */

export type InsertOutcome = 'inserted' | 'duplicate';

export const USER_SORT_FIELDS = ['username', 'firstName', 'lastName', 'midName', 'role', 'status', 'locale', 'timezone', 'createdAt', 'updatedAt'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

export interface UserPageQuery {
  roles: readonly Role[];
  statuses: readonly UserStatus[];
  sort: ReadonlyArray<readonly [UserSortField, 'asc' | 'desc']>;
  skip: number;
  limit: number;
}

export type UserPatch = Partial<Pick<User, 'role' | 'status' | 'emailVerified'>>;

export interface UserRepository {
  /** 'duplicate' when the (lower-cased) username is taken. */
  insert(user: User): Promise<InsertOutcome>;
  findById(userId: string): Promise<User | undefined>;
  findByUsername(username: string): Promise<User | undefined>;
  update(userId: string, patch: UserPatch, now: Date): Promise<User | undefined>;
  /**
   * Refuses the user's access tokens issued before `validFrom` (see @stormhook/access tokensValidFrom).
   * Never moves the instant back: two endings racing keep the later one.
   */
  endAccessTokens(userId: string, validFrom: Date): Promise<void>;
  page(query: UserPageQuery): Promise<{ users: User[]; total: number }>;
}

export interface CredentialRepository {
  /** The PHC password hash, if the user has a password. */
  passwordHash(userId: string): Promise<string | undefined>;
  setPasswordHash(userId: string, phc: string, now: Date): Promise<void>;
}

export type AccountProfilePatch = { [K in keyof AccountProfile]?: AccountProfile[K] | null };

export interface AccountRepository {
  /** 'duplicate' when the user already has an account. */
  insert(account: Account): Promise<InsertOutcome>;
  findById(accountId: string): Promise<Account | undefined>;
  findByUserId(userId: string): Promise<Account | undefined>;
  findByUserIds(userIds: readonly string[]): Promise<Account[]>;
  /**
   * Writes the profile fields; `null` removes one. A changed phone number clears its verification and
   * any pending activation in the same write.
   */
  updateProfile(accountId: string, patch: AccountProfilePatch, now: Date): Promise<Account | undefined>;
  setSubscription(accountId: string, subscription: Subscription, now: Date): Promise<Account | undefined>;
  startPhoneActivation(accountId: string, activation: PhoneActivation, now: Date): Promise<Account | undefined>;
  /** Marks `phoneNumber` verified when it is still the account's number and drops the pending activation. */
  completePhoneActivation(accountId: string, phoneNumber: string, now: Date): Promise<Account | undefined>;
}

/** One refresh token of a login session ("family"); rotation adds a token to the family. */
export interface RefreshTokenRecord {
  tokenId: string;
  familyId: string;
  userId: string;
  /** SHA-256 of the secret part. */
  secretHash: string;
  issuedAt: Date;
  expiresAt: Date;
  /** Set when exchanged for a new token: presenting it again means it was stolen. */
  rotatedAt?: Date;
  revokedAt?: Date;
}

export interface RefreshTokenRepository {
  insert(record: RefreshTokenRecord): Promise<void>;
  /** The token; `revokedAt` is also set when its family was revoked after it was issued. */
  findById(tokenId: string): Promise<RefreshTokenRecord | undefined>;
  /**
   * Claims the one rotation of a token: true for exactly one caller, however many race (a unique
   * insert, the only atomic check-and-set the embedded database offers); false for every other.
   */
  markRotated(tokenId: string, now: Date, retainUntil: Date): Promise<boolean>;
  /** Ends a session; tokens of the family issued later, by a racing refresh, are revoked too. */
  revokeFamily(familyId: string, now: Date): Promise<void>;
  isFamilyRevoked(familyId: string): Promise<boolean>;
  revokeAllOfUser(userId: string, now: Date): Promise<void>;
  /** Deletes tokens past their expiry; a dead token needs no replay detection. */
  purgeExpired(now: Date): Promise<number>;
}

export interface ApiKeyRecord {
  keyId: string;
  userId: string;
  name: string;
  secretHash: string;
  /** Last four characters of the secret, shown in lists. */
  hint: string;
  createdAt: Date;
  expiresAt?: Date;
  lastUsedAt?: Date;
  revokedAt?: Date;
}

export interface ApiKeyRepository {
  insert(record: ApiKeyRecord): Promise<void>;
  findById(keyId: string): Promise<ApiKeyRecord | undefined>;
  listByUser(userId: string): Promise<ApiKeyRecord[]>;
  /** False when the key does not exist, belongs to another user or was already revoked. */
  revoke(keyId: string, userId: string, now: Date): Promise<boolean>;
  /** Deletes a key that never left identity (one created past the per-user cap by a racing request). */
  remove(keyId: string): Promise<void>;
  /** Records use, at most once per `minIntervalMs` to keep hot keys from writing on every request. */
  touch(keyId: string, now: Date, minIntervalMs: number): Promise<void>;
}

export type OneTimeTokenPurpose = 'password-reset' | 'invitation';

export interface OneTimeTokenRecord {
  /** SHA-256 of the token; the token itself is only in the message sent to the user. */
  tokenHash: string;
  userId: string;
  purpose: OneTimeTokenPurpose;
  createdAt: Date;
  expiresAt: Date;
  usedAt?: Date;
}

export interface OneTimeTokenRepository {
  insert(record: OneTimeTokenRecord): Promise<void>;
  findByHash(tokenHash: string): Promise<OneTimeTokenRecord | undefined>;
  /** Marks an unused token used: true for exactly one caller, however many race. */
  consume(tokenHash: string, now: Date): Promise<boolean>;
  /** Marks every unused token of the user (optionally of one purpose) used, e.g. when a newer one is issued. */
  invalidateAll(userId: string, now: Date, purpose?: OneTimeTokenPurpose): Promise<void>;
  purgeExpired(now: Date): Promise<number>;
}

export interface AttemptEntry {
  id: string;
  /** `<scope>:<subject>`, e.g. `login-user:ada@example.com`. */
  key: string;
  at: Date;
  expiresAt: Date;
}

/**
 * A log of attempts, one document per attempt, shared by every identity instance. Counting inserted
 * documents stays exact under concurrency where a `$inc` counter would not: FerretDB 1.x applies
 * updates as read-modify-write and loses concurrent increments.
 */
export interface AttemptLogRepository {
  add(entries: readonly AttemptEntry[]): Promise<void>;
  /** Times of the attempts under `key` after `after`, oldest first. */
  timesAfter(key: string, after: Date): Promise<Date[]>;
  remove(ids: readonly string[]): Promise<void>;
  clear(key: string): Promise<void>;
  /** Deletes entries past their expiry (no TTL indexes on the embedded database). */
  purgeExpired(now: Date): Promise<number>;
}

export interface IdentityRepositories {
  users: UserRepository;
  credentials: CredentialRepository;
  accounts: AccountRepository;
  refreshTokens: RefreshTokenRepository;
  apiKeys: ApiKeyRepository;
  oneTimeTokens: OneTimeTokenRepository;
  attempts: AttemptLogRepository;
}
