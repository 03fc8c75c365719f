import { type AccessDecision, type AccessSnapshot, decideAccess, type GeoPoint, type Principal } from '@stormhook/access';
import type { Account } from '../domain/account.js';
import type { Clock } from '../ports/clock.js';
import type { GeoResolver } from '../ports/geo-resolver.js';
import type { UserRepository } from '../ports/repositories.js';

export type { AccessDecision, GeoPoint } from '@stormhook/access';

export interface CheckAccessPorts {
  accounts: { findById(accountId: string): Promise<Account | undefined>; findByUserId(userId: string): Promise<Account | undefined> };
  geo: GeoResolver;
  clock: Clock;
}

/**
 * Identity's CheckAccess: the shared rules of @stormhook/access over identity's own database. The
 * gateway decides the same way from a snapshot in memory (see {@link AccessSnapshots}); this stays
 * for callers that hold no snapshot.
 */
export class CheckAccess {
  constructor(private readonly ports: CheckAccessPorts) {}

  async checkAccess(principal: Principal | undefined, operationId: string, location?: GeoPoint): Promise<AccessDecision> {
    return decideAccess(principal, operationId, location, {
      // The token may predate the account (created after sign-in), so fall back to the user's account.
      account: () =>
        principal?.accountId ? this.ports.accounts.findById(principal.accountId) : principal ? this.ports.accounts.findByUserId(principal.userId) : undefined,
      resolve: (point) => this.ports.geo.resolve(point),
      now: this.ports.clock.now(),
    });
  }
}

export interface AccessSnapshotPorts {
  users: Pick<UserRepository, 'findById'>;
  accounts: { findByUserId(userId: string): Promise<Account | undefined>; findById(accountId: string): Promise<Account | undefined> };
}

/** What the gateway keeps in memory about one user: read here once, then refreshed on change events. */
export class AccessSnapshots {
  constructor(private readonly ports: AccessSnapshotPorts) {}

  async snapshotOf(userId: string): Promise<AccessSnapshot | undefined> {
    const [user, account] = await Promise.all([this.ports.users.findById(userId), this.ports.accounts.findByUserId(userId)]);
    if (!user) return undefined;
    return {
      userId: user.userId,
      username: user.username,
      role: user.role,
      status: user.status,
      ...(user.accessTokensValidFrom ? { accessTokensValidFrom: user.accessTokensValidFrom } : {}),
      ...(account ? { account: { id: account.id, userId: account.userId, subscription: account.subscription } } : {}),
    };
  }

  /** The snapshot of the account's owning user (the alarm-matcher's question); undefined for an unknown account. */
  async snapshotOfAccount(accountId: string): Promise<AccessSnapshot | undefined> {
    const account = await this.ports.accounts.findById(accountId);
    return account ? this.snapshotOf(account.userId) : undefined;
  }
}
