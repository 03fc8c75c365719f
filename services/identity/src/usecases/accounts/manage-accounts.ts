import { randomUUID } from 'node:crypto';
import { conflict, forbidden, notFound, validation } from '../../errors.js';
import type { Account, AccountProfile } from '../../domain/account.js';
import { uuid } from '../../domain/fields.js';
import { DEFAULT_PLAN_TABLE, defaultSubscription, type PlanTable } from '../../domain/plan-defaults.js';
import type { Principal } from '@stormhook/access';
import { isSubscriptionPlan, SUBSCRIPTION_PLANS, type SubscriptionPlan } from '../../domain/subscription.js';
import type { AccessChangePublisher } from '../../ports/access-changes.js';
import type { Clock } from '../../ports/clock.js';
import type { AccountRepository, UserRepository } from '../../ports/repositories.js';
import { fail, ok, type Result } from '../../result.js';
import { isAdmin, mayRead, mayWrite } from '../access.js';
import { accountView, type AccountView } from '../views.js';
import { parseProfilePatch, requireType, type AccountProfileInput } from './account-fields.js';

/** interface.md 4.13. */
export interface CreateAccountInput extends AccountProfileInput {
  userId: unknown;
  subscriptionPlan: unknown;
}

/** interface.md 4.14: no plan; users never set their own plan. */
export interface UpdateAccountInput extends AccountProfileInput {
  accountId: unknown;
  subscriptionPlan?: unknown;
}

export interface AccountPorts {
  users: UserRepository;
  accounts: AccountRepository;
  accessChanges: AccessChangePublisher;
  clock: Clock;
}

export interface AccountOptions {
  planTable?: PlanTable;
  /** Plans a user may choose for their own new account; default NONE and TRIAL (one trial per user). */
  selfServicePlans?: readonly SubscriptionPlan[];
}

/**
 * One account per user. The owner or an ADMIN creates and changes it; anyone else is told the user
 * or account does not exist (404, OWASP API1). Paid plans are granted by an ADMIN only (API3).
 */
export class Accounts {
  private readonly planTable: PlanTable;
  private readonly selfServicePlans: readonly SubscriptionPlan[];

  constructor(
    private readonly ports: AccountPorts,
    options: AccountOptions = {},
  ) {
    this.planTable = options.planTable ?? DEFAULT_PLAN_TABLE;
    this.selfServicePlans = options.selfServicePlans ?? ['NONE', 'TRIAL'];
  }

  async createAccount(actor: Principal, input: CreateAccountInput): Promise<Result<AccountView>> {
    const { ports } = this;
    const userId = uuid('userId', input.userId);
    if (!userId.ok) return userId;
    const type = requireType(input);
    if (!type.ok) return type;
    if (!isSubscriptionPlan(input.subscriptionPlan)) return fail(validation('subscriptionPlan', `must be one of ${SUBSCRIPTION_PLANS.join(', ')}`));
    const plan = input.subscriptionPlan;
    const profile = parseProfilePatch(input);
    if (!profile.ok) return profile;

    if (!mayWrite(actor, userId.value)) return fail(notFound('user'));
    const user = await ports.users.findById(userId.value);
    if (!user) return fail(notFound('user'));
    if (!isAdmin(actor) && !this.selfServicePlans.includes(plan)) {
      return fail(forbidden(`The plan ${plan} is granted by an administrator; choose ${this.selfServicePlans.join(' or ')}`));
    }

    const now = ports.clock.now();
    const fields = Object.fromEntries(Object.entries(profile.value).filter(([, v]) => v !== null && v !== undefined)) as Partial<AccountProfile>;
    const account: Account = {
      ...fields,
      id: randomUUID(),
      userId: user.userId,
      type: type.value,
      subscriptionPlan: plan,
      subscription: defaultSubscription(plan, now, this.planTable),
      mobilePhoneNumberVerified: false,
      createdAt: now,
      updatedAt: now,
    };
    if ((await ports.accounts.insert(account)) === 'duplicate') return fail(conflict('This user already has an account'));
    await ports.accessChanges.changed(account.userId, 'ACCOUNT');
    return ok(accountView(account, user));
  }

  async updateAccount(actor: Principal, input: UpdateAccountInput): Promise<Result<AccountView>> {
    const { ports } = this;
    const accountId = uuid('accountId', input.accountId);
    if (!accountId.ok) return accountId;
    if (input.subscriptionPlan !== undefined) {
      return fail(validation('subscriptionPlan', 'cannot be changed by an account update; an ADMIN changes plans with update-subscription'));
    }
    if (input.type === null) return fail(validation('type', 'cannot be removed'));
    const patch = parseProfilePatch(input);
    if (!patch.ok) return patch;

    const account = await ports.accounts.findById(accountId.value);
    if (!account || !mayWrite(actor, account.userId)) return fail(notFound('account'));
    const updated = Object.keys(patch.value).length === 0 ? account : await ports.accounts.updateProfile(account.id, patch.value, ports.clock.now());
    if (!updated) return fail(notFound('account'));
    if (updated !== account) await ports.accessChanges.changed(updated.userId, 'ACCOUNT');
    return ok(accountView(updated, await ports.users.findById(updated.userId)));
  }

  /** `GET /v1/accounts/{userId}`: the account of a user, for the owner and POWER_USER and above. */
  async getAccountOfUser(actor: Principal, userIdRaw: unknown): Promise<Result<AccountView>> {
    const userId = uuid('userId', userIdRaw);
    if (!userId.ok) return userId;
    if (!mayRead(actor, userId.value)) return fail(notFound('account'));
    const account = await this.ports.accounts.findByUserId(userId.value);
    if (!account) return fail(notFound('account'));
    return ok(accountView(account, await this.ports.users.findById(account.userId)));
  }
}
