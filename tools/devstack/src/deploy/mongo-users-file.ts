import { join } from 'node:path';
import { DATABASE_ACCESS, DATABASE_USERS, databaseSuffix, type DatabaseAccess } from '@stormhook/mongo';
import type { GeneratedFile } from './generated-file.js';

/**
 * The chart cannot import TypeScript, so it reads the database access table (each service's MongoDB
 * user and roles) from a JSON file rendered from `@stormhook/mongo` (database-access.ts), with
 * database names after the prefix (the chart adds global.dbPrefix, default `stormhook`). Committed,
 * and the deploy checks fail when it no longer matches the table.
 */
export const MONGO_USERS_FILE = join('deploy', 'helm', 'stormhook', 'files', 'mongo-users.json');

export function renderMongoUsersFile(): string {
  const document = {
    generatedFrom: 'packages/mongo/src/database-access.ts',
    warning: 'Generated: do not edit. Regenerate with `node tools/devstack/dist/deploy/cli.js mongo-users`.',
    users: DATABASE_USERS.map((user) => {
      const access: DatabaseAccess = DATABASE_ACCESS[user];
      return {
        user,
        database: databaseSuffix(access.owns),
        roles: [
          { role: 'readWrite', database: databaseSuffix(access.owns) },
          ...access.reads.map((other) => ({ role: 'read', database: databaseSuffix(other) })),
        ],
      };
    }),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

export const MONGO_USERS_GENERATED: GeneratedFile = {
  path: MONGO_USERS_FILE,
  source: 'packages/mongo/src/database-access.ts',
  command: 'mongo-users',
  render: renderMongoUsersFile,
};
