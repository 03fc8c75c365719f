import { randomUUID } from 'node:crypto';
import { validation } from '../../errors.js';
import { email } from '../../domain/fields.js';
import { DEFAULT_LOCALE, DEFAULT_TIMEZONE, type User } from '../../domain/user.js';
import type { Clock } from '../../ports/clock.js';
import type { CredentialRepository, UserRepository } from '../../ports/repositories.js';
import { fail, ok, type Result } from '../../result.js';
import type { PasswordHasher } from '../../security/password-hasher.js';
import { password as passwordField } from './user-fields.js';

/**
 * - created: the administrator did not exist and now does;
 * - exists: a user of that name exists (its password and role are left alone: an operator who changed
 *   them later must not see them reset by a restart);
 * - repaired: the user existed without a password (a start that stopped between the two writes).
 */
export type EnsureAdminOutcome = { outcome: 'created' | 'exists' | 'repaired'; userId: string; role: User['role'] };

export interface AdminBootstrapPorts {
  users: UserRepository;
  credentials: CredentialRepository;
  hasher: PasswordHasher;
  clock: Clock;
}

/** Creates the first ADMIN from STORMHOOK_ADMIN_EMAIL / STORMHOOK_ADMIN_PASSWORD at start; idempotent. */
export class AdminBootstrap {
  constructor(private readonly ports: AdminBootstrapPorts) {}

  async ensureAdmin(adminEmail: string, adminPassword: string): Promise<Result<EnsureAdminOutcome>> {
    const { ports } = this;
    const username = email('STORMHOOK_ADMIN_EMAIL', adminEmail);
    if (!username.ok) return username;
    const pw = passwordField('STORMHOOK_ADMIN_PASSWORD', adminPassword);
    if (!pw.ok) return pw;

    const existing = await ports.users.findByUsername(username.value);
    if (existing) {
      if ((await ports.credentials.passwordHash(existing.userId)) !== undefined) {
        return ok({ outcome: 'exists', userId: existing.userId, role: existing.role });
      }
      await ports.credentials.setPasswordHash(existing.userId, await ports.hasher.hash(pw.value), ports.clock.now());
      return ok({ outcome: 'repaired', userId: existing.userId, role: existing.role });
    }

    const now = ports.clock.now();
    const hash = await ports.hasher.hash(pw.value);
    const admin: User = {
      userId: randomUUID(),
      username: username.value,
      firstName: 'Stormhook',
      lastName: 'Administrator',
      locale: DEFAULT_LOCALE,
      timezone: DEFAULT_TIMEZONE,
      role: 'ADMIN',
      status: 'ACTIVE',
      emailVerified: true,
      createdAt: now,
      updatedAt: now,
    };
    if ((await ports.users.insert(admin)) === 'duplicate') {
      // Another replica won the race; its write is as good as ours.
      const winner = await ports.users.findByUsername(username.value);
      if (!winner) return fail(validation('STORMHOOK_ADMIN_EMAIL', 'the administrator could not be created'));
      return ok({ outcome: 'exists', userId: winner.userId, role: winner.role });
    }
    await ports.credentials.setPasswordHash(admin.userId, hash, now);
    return ok({ outcome: 'created', userId: admin.userId, role: admin.role });
  }
}
