import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from '../paths.js';

export interface DevAdmin {
  email: string;
  password: string;
  /** True when the values came from the environment rather than the local development file. */
  fromEnvironment: boolean;
}

/**
 * The first administrator of a local stack. Taken from STORMHOOK_ADMIN_EMAIL/PASSWORD when set;
 * otherwise made up once per checkout and kept in .stack/data/dev-admin.json (ignored by git), so
 * a new user can log in at once and the same login keeps working across restarts.
 */
export function devAdmin(env: NodeJS.ProcessEnv = process.env): DevAdmin {
  const email = env['STORMHOOK_ADMIN_EMAIL'];
  const password = env['STORMHOOK_ADMIN_PASSWORD'];
  if (email && password) return { email, password, fromEnvironment: true };
  const file = join(paths.data, 'dev-admin.json');
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { email: string; password: string };
    return { ...stored, fromEnvironment: false };
  }
  const created = { email: 'admin@stormhook.test', password: randomBytes(12).toString('base64url') };
  mkdirSync(paths.data, { recursive: true });
  writeFileSync(file, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 });
  return { ...created, fromEnvironment: false };
}
