import { ensureIndexes, type IndexSpec } from '@stormhook/mongo';
import type { Collection, Db } from 'mongodb';
import type {
  AccountDoc,
  ApiKeyDoc,
  AttemptDoc,
  ClaimDoc,
  CredentialDoc,
  SigningKeyDoc,
  OneTimeTokenDoc,
  RefreshTokenDoc,
  SubscriptionDoc,
  UserDoc,
} from './documents.js';

/**
 * Collection names of the identity database.
 * WARNING: renaming a collection or an index needs a migration (ensureIndexes refuses to redefine).
 */
export const COLLECTIONS = {
  users: 'users',
  credentials: 'credentials',
  accounts: 'accounts',
  subscriptions: 'subscriptions',
  refreshTokens: 'refresh_tokens',
  apiKeys: 'api_keys',
  oneTimeTokens: 'one_time_tokens',
  attempts: 'attempts',
  claims: 'claims',
  signingKeys: 'signing_keys',
} as const;

export interface IdentityCollections {
  users: Collection<UserDoc>;
  credentials: Collection<CredentialDoc>;
  accounts: Collection<AccountDoc>;
  subscriptions: Collection<SubscriptionDoc>;
  refreshTokens: Collection<RefreshTokenDoc>;
  apiKeys: Collection<ApiKeyDoc>;
  oneTimeTokens: Collection<OneTimeTokenDoc>;
  attempts: Collection<AttemptDoc>;
  claims: Collection<ClaimDoc>;
  signingKeys: Collection<SigningKeyDoc>;
}

export function identityCollections(db: Db): IdentityCollections {
  return {
    users: db.collection<UserDoc>(COLLECTIONS.users),
    credentials: db.collection<CredentialDoc>(COLLECTIONS.credentials),
    accounts: db.collection<AccountDoc>(COLLECTIONS.accounts),
    subscriptions: db.collection<SubscriptionDoc>(COLLECTIONS.subscriptions),
    refreshTokens: db.collection<RefreshTokenDoc>(COLLECTIONS.refreshTokens),
    apiKeys: db.collection<ApiKeyDoc>(COLLECTIONS.apiKeys),
    oneTimeTokens: db.collection<OneTimeTokenDoc>(COLLECTIONS.oneTimeTokens),
    attempts: db.collection<AttemptDoc>(COLLECTIONS.attempts),
    claims: db.collection<ClaimDoc>(COLLECTIONS.claims),
    signingKeys: db.collection<SigningKeyDoc>(COLLECTIONS.signingKeys),
  };
}

/** Unique indexes back every "at most one" rule: one user per username, one account per user. */
const INDEXES: { [K in keyof IdentityCollections]: IndexSpec[] } = {
  users: [
    { name: 'username_unique', key: { username: 1 }, unique: true },
    { name: 'role_status', key: { role: 1, status: 1 } },
  ],
  credentials: [],
  accounts: [{ name: 'userId_unique', key: { userId: 1 }, unique: true }],
  subscriptions: [],
  refreshTokens: [
    { name: 'familyId', key: { familyId: 1 } },
    { name: 'userId', key: { userId: 1 } },
    { name: 'expiresAt', key: { expiresAt: 1 } },
  ],
  apiKeys: [{ name: 'userId', key: { userId: 1 } }],
  oneTimeTokens: [
    { name: 'userId_purpose', key: { userId: 1, purpose: 1 } },
    { name: 'expiresAt', key: { expiresAt: 1 } },
  ],
  attempts: [
    { name: 'key_at', key: { key: 1, at: 1 } },
    { name: 'expiresAt', key: { expiresAt: 1 } },
  ],
  claims: [{ name: 'kind_expiresAt', key: { kind: 1, expiresAt: 1 } }],
  signingKeys: [],
};

/** Creates missing indexes; call at every start (idempotent). */
export async function ensureIdentityIndexes(db: Db): Promise<void> {
  for (const name of Object.keys(INDEXES) as Array<keyof IdentityCollections>) {
    await ensureIndexes(db.collection(COLLECTIONS[name]), INDEXES[name]);
  }
}
