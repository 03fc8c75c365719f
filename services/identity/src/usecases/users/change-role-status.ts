import { forbidden, notFound, validation } from '../../errors.js';
import { uuid } from '../../domain/fields.js';
import { isRole, tokensValidFrom, type Principal, type Role, ROLES } from '@stormhook/access';
import { canSignIn, isUserStatus, USER_STATUSES, type UserStatus } from '../../domain/user.js';
import type { AccessChangePublisher } from '../../ports/access-changes.js';
import type { Clock } from '../../ports/clock.js';
import type { AccountRepository, RefreshTokenRepository, UserPatch, UserRepository } from '../../ports/repositories.js';
import { fail, ok, type Result } from '../../result.js';
import { isAdmin } from '../access.js';
import { userView, type UserView } from '../views.js';

export interface RoleAndStatusChange {
  userId: unknown;
  role?: unknown;
  status?: unknown;
}

export interface ChangeRoleAndStatusPorts {
  users: UserRepository;
  accounts: AccountRepository;
  refreshTokens: RefreshTokenRepository;
  accessChanges: AccessChangePublisher;
  clock: Clock;
}

/**
 * ADMIN sets a user's role and/or status. A user who may no longer sign in loses every session at
 * once, and their access tokens for good (refused while blocked, and still refused after an unblock). An administrator cannot change
 * their own role or status, so the last ADMIN cannot lock everybody out by mistake.
 */
export class ChangeRoleAndStatus {
  constructor(private readonly ports: ChangeRoleAndStatusPorts) {}

  async changeRoleAndStatus(actor: Principal, input: RoleAndStatusChange): Promise<Result<UserView>> {
    const { ports } = this;
    if (!isAdmin(actor)) return fail(forbidden('Only an ADMIN may change roles and statuses'));
    const userId = uuid('userId', input.userId);
    if (!userId.ok) return userId;
    const patch: UserPatch = {};
    if (input.role !== undefined && input.role !== null) {
      if (!isRole(input.role)) return fail(validation('role', `must be one of ${ROLES.join(', ')}`));
      patch.role = input.role satisfies Role;
    }
    if (input.status !== undefined && input.status !== null) {
      if (!isUserStatus(input.status)) return fail(validation('status', `must be one of ${USER_STATUSES.join(', ')}`));
      patch.status = input.status satisfies UserStatus;
    }
    if (patch.role === undefined && patch.status === undefined) return fail(validation('role', 'give a role, a status or both'));
    if (userId.value === actor.userId) return fail(forbidden('Administrators cannot change their own role or status'));

    const now = ports.clock.now();
    const updated = await ports.users.update(userId.value, patch, now);
    if (!updated) return fail(notFound('user'));
    if (!canSignIn(updated.status)) {
      await ports.refreshTokens.revokeAllOfUser(updated.userId, now);
      // The status alone refuses the tokens while the block lasts; this keeps them dead after an unblock.
      await ports.users.endAccessTokens(updated.userId, tokensValidFrom(ports.clock.now()));
    }
    // After the write: the gateways re-read the user, so a block or a demotion is refused within their bound.
    await ports.accessChanges.changed(updated.userId, 'ROLE_OR_STATUS');
    return ok(userView(updated, await ports.accounts.findByUserId(updated.userId)));
  }
}
