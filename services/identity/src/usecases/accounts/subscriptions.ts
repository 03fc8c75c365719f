import { forbidden, notFound, validation } from '../../errors.js';
import { uuid } from '../../domain/fields.js';
import { type GeoBoundary, type Principal } from '@stormhook/access';
import { DEFAULT_PLAN_TABLE, defaultSubscription, type PlanTable } from '../../domain/plan-defaults.js';
import {
  isSubscriptionActive,
  isSubscriptionPlan,
  parseBoundaries,
  parseServiceLimits,
  SUBSCRIPTION_PLANS,
  type ServiceLimits,
  type Subscription,
  type SubscriptionPlan,
} from '../../domain/subscription.js';
import type { AccessChangePublisher } from '../../ports/access-changes.js';
import type { Clock } from '../../ports/clock.js';
import type { AccountRepository } from '../../ports/repositories.js';
import { fail, ok, type Result } from '../../result.js';
import { isAdmin, mayRead } from '../access.js';
import type { SubscriptionUpdateInput } from './subscription-input.js';

export interface SubscriptionView {
  accountId: string;
  userId: string;
  subscriptionPlan: SubscriptionPlan;
  /** Absent: never expires. */
  expiresAt?: Date;
  active: boolean;
  geographicBoundaries: GeoBoundary[];
  limits: ServiceLimits;
  /** Things an operator probably did not mean (already expired, grants nothing). */
  warnings: string[];
}

export interface SubscriptionPorts {
  accounts: AccountRepository;
  accessChanges: AccessChangePublisher;
  clock: Clock;
}

/** Latest expiry we accept: year 9999 keeps dates printable and far enough for "forever, but dated". */
const MAX_EPOCH_MS = 253_402_300_799_000;

function parseExpiry(raw: unknown): Result<Date | null | undefined> {
  if (raw === undefined) return ok(undefined);
  if (raw === null) return ok(null);
  const ms = raw instanceof Date ? raw.getTime() : raw;
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0 || ms > MAX_EPOCH_MS) {
    return fail(validation('expiresAt', 'must be epoch milliseconds'));
  }
  return ok(new Date(ms));
}

/** Plans, expiry, geography and limits: written by an ADMIN only (OWASP API3), read by the owner too. */
export class Subscriptions {
  constructor(
    private readonly ports: SubscriptionPorts,
    private readonly planTable: PlanTable = DEFAULT_PLAN_TABLE,
  ) {}

  /**
   * Sets the subscription of an account. Parts left out take the plan's defaults, counted from now:
   * `{subscriptionPlan: "PREMIUM_MONTHLY"}` alone renews a premium month with the standard limits.
   */
  async updateSubscription(actor: Principal, input: SubscriptionUpdateInput): Promise<Result<SubscriptionView>> {
    const { ports } = this;
    if (!isAdmin(actor)) return fail(forbidden('Only an ADMIN may change subscriptions'));
    const accountId = uuid('accountId', input.accountId);
    if (!accountId.ok) return accountId;
    const userId = input.userId === undefined || input.userId === null ? undefined : uuid('userId', input.userId);
    if (userId && !userId.ok) return userId;
    if (!isSubscriptionPlan(input.subscriptionPlan)) return fail(validation('subscriptionPlan', `must be one of ${SUBSCRIPTION_PLANS.join(', ')}`));
    const plan = input.subscriptionPlan;
    const expiry = parseExpiry(input.expiresAt);
    if (!expiry.ok) return expiry;
    const boundaries = input.geographicBoundaries === undefined ? undefined : parseBoundaries('geographicBoundaries', input.geographicBoundaries);
    if (boundaries && !boundaries.ok) return boundaries;
    const limits = input.limits === undefined ? undefined : parseServiceLimits('limits', input.limits);
    if (limits && !limits.ok) return limits;

    const now = ports.clock.now();
    const defaults = defaultSubscription(plan, now, this.planTable);
    const expiresAt = expiry.value === undefined ? defaults.expiresAt : (expiry.value ?? undefined);
    const subscription: Subscription = {
      plan,
      ...(expiresAt ? { expiresAt } : {}),
      geographicBoundaries: boundaries?.ok ? boundaries.value : defaults.geographicBoundaries,
      limits: limits?.ok ? limits.value : defaults.limits,
    };
    if (plan !== 'NONE' && Object.keys(subscription.limits).length > 0 && subscription.geographicBoundaries.length === 0) {
      return fail(validation('geographicBoundaries', 'must name at least one country for a plan that grants services'));
    }

    const account = await ports.accounts.findById(accountId.value);
    if (!account || (userId?.ok && userId.value !== account.userId)) return fail(notFound('account'));
    const updated = await ports.accounts.setSubscription(account.id, subscription, now);
    if (!updated) return fail(notFound('account'));
    await ports.accessChanges.changed(updated.userId, 'SUBSCRIPTION');
    const warnings: string[] = [];
    if (plan !== 'NONE' && subscription.expiresAt && subscription.expiresAt.getTime() <= now.getTime()) warnings.push('The subscription is already expired');
    if (plan !== 'NONE' && Object.keys(subscription.limits).length === 0) warnings.push('The subscription grants no service');
    return ok(this.view(updated.id, updated.userId, updated.subscription, now, warnings));
  }

  async getSubscription(actor: Principal, accountIdRaw: unknown): Promise<Result<SubscriptionView>> {
    const accountId = uuid('accountId', accountIdRaw);
    if (!accountId.ok) return accountId;
    const account = await this.ports.accounts.findById(accountId.value);
    if (!account || !mayRead(actor, account.userId)) return fail(notFound('subscription'));
    return ok(this.view(account.id, account.userId, account.subscription, this.ports.clock.now(), []));
  }

  private view(accountId: string, userId: string, s: Subscription, now: Date, warnings: string[]): SubscriptionView {
    return {
      accountId,
      userId,
      subscriptionPlan: s.plan,
      ...(s.expiresAt ? { expiresAt: s.expiresAt } : {}),
      active: isSubscriptionActive(s, now),
      geographicBoundaries: s.geographicBoundaries,
      limits: s.limits,
      warnings,
    };
  }
}
