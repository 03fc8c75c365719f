import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MongoClient } from 'mongodb';
import { DATABASE_USERS, serviceDatabase, type DatabaseUser } from '@stormhook/mongo';
import { stackDir } from '../paths.js';

/**
 * Logins on the embedded FerretDB: an administrator (tests, tools and the stack's set-up use it) and
 * one user per service of the database access table, each in its own database, so every service
 * connects as itself as it does in a cluster. FerretDB 1.24 checks the login and the password but
 * grants no roles and enforces none (ferretdb-auth.int.spec.ts): a service's login does not stop it
 * writing another's database here. The isolation is the chart's, on a real MongoDB.
 */
export const FERRET_ADMIN = 'admin';
/** FerretDB keeps its users in `admin.system.users`; its first user is made when this database does not exist yet. */
export const FERRET_ADMIN_DATABASE = 'admin';

export interface FerretLogins {
  /** The administrator's URL: tests, tools and a stack's set-up. */
  adminUrl: string;
  /** Each service's own URL: its user, authenticated against its own database. */
  serviceUrls: Record<DatabaseUser, string>;
}

/** Hex: nothing to escape in a URL. */
function newPassword(): string {
  return randomBytes(24).toString('hex');
}

function loginUrl(host: string, port: number, user: string, password: string, authSource: string): string {
  return `mongodb://${encodeURIComponent(user)}:${password}@${host}:${port}/?authSource=${authSource}`;
}

/** Where a database's administrator password is kept: beside its data, for as long as the data lives. */
export function adminPasswordFile(ferretDataDir: string): string {
  return join(ferretDataDir, 'admin-login.json');
}

/**
 * The administrator password of the database in `ferretDataDir`, created on first use. FerretDB makes
 * its first user only when the `admin` database does not exist, so a data folder whose password was
 * lost loses its `admin` database (the users alone, which every start makes again) to get a new one.
 */
export function adminPassword(ferretDataDir: string): string {
  const file = adminPasswordFile(ferretDataDir);
  if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { password: string }).password;
  for (const suffix of ['.sqlite', '.sqlite-wal', '.sqlite-shm']) rmSync(join(ferretDataDir, `${FERRET_ADMIN_DATABASE}${suffix}`), { force: true });
  const password = newPassword();
  mkdirSync(ferretDataDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify({ user: FERRET_ADMIN, password })}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return password;
}

export function adminUrl(host: string, port: number, password: string): string {
  return loginUrl(host, port, FERRET_ADMIN, password, FERRET_ADMIN_DATABASE);
}

/**
 * Gives every service of the table a login with a password new to this run (an existing user gets the
 * new password), as the administrator. The users live in the services' default databases
 * (`stormhook_<service>`), which are their authentication databases whatever database prefix a run uses.
 */
export async function provisionServiceLogins(host: string, port: number, password: string): Promise<FerretLogins> {
  const admin = adminUrl(host, port, password);
  const client = new MongoClient(admin, { serverSelectionTimeoutMS: 5_000 });
  try {
    await client.connect();
    const serviceUrls = {} as Record<DatabaseUser, string>;
    for (const user of DATABASE_USERS) {
      const db = serviceDatabase(user);
      const pwd = newPassword();
      const known = (await client.db(db).command({ usersInfo: user })) as { users?: unknown[] };
      // The engine takes no roles (createUser accepts only an empty list); the chart grants readWrite.
      if ((known.users ?? []).length > 0) await client.db(db).command({ updateUser: user, pwd });
      else await client.db(db).command({ createUser: user, pwd, roles: [] });
      serviceUrls[user] = loginUrl(host, port, user, pwd, db);
    }
    return { adminUrl: admin, serviceUrls };
  } finally {
    await client.close();
  }
}

/**
 * Where a running embedded database's logins are published, by port: a second command (`npm test`
 * beside `npm start`) that finds the database running reads them here.
 */
export function runningDatabaseLoginsFile(port: number): string {
  return join(stackDir, 'run', `ferretdb-${port}-logins.json`);
}

export function writeLogins(file: string, logins: FerretLogins): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(logins, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** The logins in `file` when it names every service of today's table; else undefined. */
export function readLogins(file: string): FerretLogins | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const logins = JSON.parse(readFileSync(file, 'utf8')) as FerretLogins;
    return typeof logins.adminUrl === 'string' && DATABASE_USERS.every((u) => typeof logins.serviceUrls?.[u] === 'string') ? logins : undefined;
  } catch {
    return undefined;
  }
}

/** An external database (MONGO_URL), or one without logins: every service uses the one URL. */
export function sharedLogins(url: string): FerretLogins {
  return { adminUrl: url, serviceUrls: Object.fromEntries(DATABASE_USERS.map((u) => [u, url])) as Record<DatabaseUser, string> };
}
