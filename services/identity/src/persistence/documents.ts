import type { AccountType, PhoneActivation } from '../domain/account.js';
import type { Role } from '@stormhook/access';
import type { Subscription, SubscriptionPlan } from '../domain/subscription.js';
import type { UserStatus } from '../domain/user.js';
import type { OneTimeTokenPurpose } from '../ports/repositories.js';

/**
 * Stored shapes. `_id` is the natural identifier of each record (UUIDs, random ids, token hashes), so
 * a lookup is one primary-key read and no ObjectId leaks into the API.
 * WARNING: field names are the database schema; renaming one needs a migration.
 */

export interface UserDoc {
  _id: string;
  username: string;
  firstName: string;
  lastName: string;
  midName?: string;
  locale: string;
  timezone: string;
  role: Role;
  status: UserStatus;
  emailVerified: boolean;
  accessTokensValidFrom?: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** Apart from users so that no user read ever carries a hash. */
export interface CredentialDoc {
  _id: string;
  passwordHash: string;
  updatedAt: Date;
}

export interface AccountDoc {
  _id: string;
  userId: string;
  type: AccountType;
  mobilePhoneNumber?: string;
  location?: string;
  company?: string;
  industry?: string;
  profilePictureUrl?: string;
  mobilePhoneNumberVerified: boolean;
  phoneActivation?: PhoneActivation;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The subscription of an account, apart from the account: ADMINs write subscriptions while owners
 * write profiles, and FerretDB 1.x rewrites whole documents on update, so two writers of one
 * document can silently undo each other. An account without one has plan NONE.
 */
export interface SubscriptionDoc {
  /** The accountId. */
  _id: string;
  userId: string;
  plan: SubscriptionPlan;
  expiresAt?: Date;
  geographicBoundaries: Array<{ country: string; region?: string }>;
  limits: Subscription['limits'];
  updatedAt: Date;
}

export interface RefreshTokenDoc {
  _id: string;
  familyId: string;
  userId: string;
  secretHash: string;
  issuedAt: Date;
  expiresAt: Date;
  rotatedAt?: Date;
  revokedAt?: Date;
}

export interface ApiKeyDoc {
  _id: string;
  userId: string;
  name: string;
  secretHash: string;
  hint: string;
  createdAt: Date;
  expiresAt?: Date;
  lastUsedAt?: Date;
  revokedAt?: Date;
}

export interface OneTimeTokenDoc {
  _id: string;
  userId: string;
  purpose: OneTimeTokenPurpose;
  createdAt: Date;
  expiresAt: Date;
  usedAt?: Date;
}

/** One attempt (login, reset e-mail, SMS, code entry); counted, never updated. */
export interface AttemptDoc {
  _id: string;
  key: string;
  at: Date;
  expiresAt: Date;
}

/**
 * A one-time event, recorded by a unique insert: exactly one of any number of racing writers
 * succeeds. FerretDB 1.x runs conditional updates as read-modify-write without isolation, so
 * "update where not yet used" lets two callers through; a duplicate `_id` never does.
 */
export interface ClaimDoc {
  /** `<kind>:<id>`, e.g. `refresh-rotation:<tokenId>`, `family-revoked:<familyId>`. */
  _id: string;
  /** Who owns the claim, so each repository purges only its own. */
  kind: string;
  at: Date;
  expiresAt: Date;
}

/**
 * The token signing key of a development stack that was given none (IDENTITY_JWT_PRIVATE_KEY), kept
 * so that a restart does not end every session. Production passes the key from a secret store and
 * never writes this collection.
 */
export interface SigningKeyDoc {
  /** What the key signs, e.g. `access-tokens`. */
  _id: string;
  /** PKCS#8 PEM of the Ed25519 private key. */
  privateKeyPem: string;
  createdAt: Date;
}

/**
 * Drops undefined and null fields. The driver would store `undefined` as null, and the domain reads
 * absent optional fields as undefined; keeping nulls out keeps both directions exact.
 */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null)) as T;
}
