import { databaseName } from './names.js';

/**
 * THE table of who may use which database: every service that holds a MongoDB login, the database
 * it owns (read and write) and any other it may read. The services connect to their own database
 * through it, and the chart's users Job, the README's roles table and the deploy check are all
 * derived from it; a login has no right that is not here.
 *
 * Today every service keeps its state in its own database and reads no other's (the gateway's
 * quota meter lives in the gateway's database, the geo import writes geo's): `reads` is empty for
 * all. A row that gains a read of another service's database widens that service's blast radius;
 * prefer an RPC to the owner.
 */
export const DATABASE_USERS = ['gateway', 'identity', 'geo', 'ingest', 'query', 'alarm-matcher', 'notifier'] as const;
export type DatabaseUser = (typeof DATABASE_USERS)[number];

export interface DatabaseAccess {
  /** Read and write (MongoDB's `readWrite`), the database's collections and indexes included. */
  owns: DatabaseUser;
  /** Read only (MongoDB's `read`): another service's database. */
  reads: readonly DatabaseUser[];
}

export const DATABASE_ACCESS = {
  gateway: { owns: 'gateway', reads: [] },
  identity: { owns: 'identity', reads: [] },
  geo: { owns: 'geo', reads: [] },
  ingest: { owns: 'ingest', reads: [] },
  query: { owns: 'query', reads: [] },
  'alarm-matcher': { owns: 'alarm-matcher', reads: [] },
  notifier: { owns: 'notifier', reads: [] },
} as const satisfies Record<DatabaseUser, DatabaseAccess>;

export function isDatabaseUser(name: string): name is DatabaseUser {
  return (DATABASE_USERS as readonly string[]).includes(name);
}

/**
 * The database `service` owns: `<prefix>_<service>` with `-` as `_` (prefix `stormhook` by default;
 * STORMHOOK_DB_PREFIX). Renaming one moves the service to a new, empty database.
 */
export function serviceDatabase(service: string, prefix?: string): string {
  return databaseName(databaseSuffix(service), prefix);
}

/** The part of a service's database name after the prefix (the chart adds the prefix itself). */
export function databaseSuffix(service: string): string {
  return service.replace(/-/g, '_');
}

export interface MongoRole {
  role: 'readWrite' | 'read';
  db: string;
}

/** One MongoDB user of the table: created in the database it owns, which is its authentication database. */
export interface MongoUserSpec {
  user: DatabaseUser;
  db: string;
  roles: MongoRole[];
}

/** Every user of the table with its roles, under `prefix` (the render's or STORMHOOK_DB_PREFIX). */
export function mongoUsers(prefix?: string): MongoUserSpec[] {
  return DATABASE_USERS.map((user) => {
    const access: DatabaseAccess = DATABASE_ACCESS[user];
    const db = serviceDatabase(access.owns, prefix);
    const roles: MongoRole[] = [{ role: 'readWrite', db }, ...access.reads.map((other) => ({ role: 'read' as const, db: serviceDatabase(other, prefix) }))];
    return { user, db, roles };
  });
}

/** A user in one line, for comparisons: `gateway@stormhook_gateway readWrite@stormhook_gateway`. */
export function mongoUserText(spec: MongoUserSpec): string {
  return [`${spec.user}@${spec.db}`, ...spec.roles.map((r) => `${r.role}@${r.db}`)].join(' ');
}
