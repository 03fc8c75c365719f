export { connectMongo, redactUrl, type MongoHandle, type MongoOptions } from './connect.js';
export {
  ensureDatabaseIndexes,
  ensureIndexes,
  IndexConflictError,
  type DatabaseIndexesResult,
  type IndexSpec,
  type EnsureIndexesOptions,
  type EnsureIndexesResult,
} from './indexes.js';
export { serverTraits, traitsOf, type ServerTraits } from './server-traits.js';
export { isDuplicateKeyError } from './duplicate-key.js';
export { databaseName } from './names.js';
export { bulkWriteInChunks, MAX_STATEMENTS_PER_COMMAND } from './bulk-write.js';
export {
  DATABASE_ACCESS,
  DATABASE_USERS,
  databaseSuffix,
  isDatabaseUser,
  mongoUsers,
  mongoUserText,
  serviceDatabase,
  type DatabaseAccess,
  type DatabaseUser,
  type MongoRole,
  type MongoUserSpec,
} from './database-access.js';
