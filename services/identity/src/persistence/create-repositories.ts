import type { Db } from 'mongodb';
import type { IdentityRepositories } from '../ports/repositories.js';
import { MongoAccountRepository } from './account-repository.js';
import { MongoApiKeyRepository } from './api-key-repository.js';
import { MongoAttemptLogRepository } from './attempt-log-repository.js';
import { identityCollections } from './collections.js';
import { MongoCredentialRepository } from './credential-repository.js';
import { MongoOneTimeTokenRepository } from './one-time-token-repository.js';
import { MongoRefreshTokenRepository } from './refresh-token-repository.js';
import { MongoUserRepository } from './user-repository.js';

/** Every repository of identity over one database (call ensureIdentityIndexes first, once per start). */
export function createMongoRepositories(db: Db): IdentityRepositories {
  const c = identityCollections(db);
  return {
    users: new MongoUserRepository(c.users),
    credentials: new MongoCredentialRepository(c.credentials),
    accounts: new MongoAccountRepository(c.accounts, c.subscriptions),
    refreshTokens: new MongoRefreshTokenRepository(c.refreshTokens, c.claims),
    apiKeys: new MongoApiKeyRepository(c.apiKeys),
    oneTimeTokens: new MongoOneTimeTokenRepository(c.oneTimeTokens, c.claims),
    attempts: new MongoAttemptLogRepository(c.attempts),
  };
}
