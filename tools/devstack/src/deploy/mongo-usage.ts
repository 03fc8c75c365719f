import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_ACCESS, DATABASE_USERS, type DatabaseAccess, type DatabaseUser } from '@stormhook/mongo';
import type { StepResult } from './chart-checks.js';

/** Folders of a service that are not the service in production: tests and benches make their own databases. */
const NOT_THE_SERVICE = new Set(['test-support', 'bench']);

// The ways code picks a database: the platform of a service (its own), or a database named for a service.
const PLATFORM = /\bstart(?:Grpc\w*|Platform)\(\s*'([a-z-]+)'/g;
const NAMED = /\b(?:serviceDatabase|databaseName)\(\s*'([a-z_-]+)'/g;
// Any other database opened by name (`client.db(...)`) escapes the table.
const BY_NAME = /\.db\(\s*[^)\s]/g;

export interface MongoUsage {
  /** Services whose database the code opens, by the name the table uses. */
  opens: Set<string>;
  /** Files that open a database by an expression the check cannot tie to a service. */
  unknown: string[];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return NOT_THE_SERVICE.has(name) ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Which databases each service's production code opens, read from its source folder. */
export function codeMongoUsage(root: string): Map<DatabaseUser, MongoUsage> {
  const usage = new Map<DatabaseUser, MongoUsage>();
  for (const service of DATABASE_USERS) {
    const found: MongoUsage = { opens: new Set(), unknown: [] };
    for (const file of sourceFiles(join(root, 'services', service, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(PLATFORM)) found.opens.add(match[1]!);
      for (const match of text.matchAll(NAMED)) found.opens.add(match[1]!.replace(/_/g, '-'));
      if (BY_NAME.test(text)) found.unknown.push(file.slice(root.length + 1));
      BY_NAME.lastIndex = 0;
    }
    usage.set(service, found);
  }
  return usage;
}

/**
 * The code uses the databases as the access table says: each service opens its own database and
 * no other, unless its row lets it read one; and opens none by a name the table cannot see.
 */
export function checkMongoUsage(root: string): StepResult {
  const problems: string[] = [];
  for (const [service, usage] of codeMongoUsage(root)) {
    const access: DatabaseAccess = DATABASE_ACCESS[service];
    const allowed = new Set<string>([access.owns, ...access.reads]);
    for (const opened of usage.opens) if (!allowed.has(opened)) problems.push(`${service} opens ${opened}'s database in code, not in the table`);
    if (!usage.opens.has(access.owns)) problems.push(`${service} never opens its own database in code`);
    for (const file of usage.unknown) problems.push(`${service} opens a database by name in ${file}`);
  }
  return {
    name: 'MongoDB usage: each service opens exactly the databases of its row of packages/mongo/src/database-access.ts',
    ok: problems.length === 0,
    detail: problems.length === 0 ? `${DATABASE_USERS.length} services` : problems.join('; '),
  };
}
