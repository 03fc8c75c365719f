import { enumNames, identityV1 } from '@stormhook/proto';
import type { GeoBoundary } from './geography.js';
import type { MeteredService } from './metered-services.js';

/** interface.md 2.9, from identity's vocabulary.proto. Stored in accounts: renaming one needs a data migration. */
export const SUBSCRIPTION_PLANS = enumNames(identityV1.SubscriptionPlan, 'SUBSCRIPTION_PLAN_');
export type SubscriptionPlan = (typeof SUBSCRIPTION_PLANS)[number];

export function isSubscriptionPlan(value: unknown): value is SubscriptionPlan {
  return typeof value === 'string' && (SUBSCRIPTION_PLANS as readonly string[]).includes(value);
}

/**
 * When an invocation counter starts again (the incumbent's `limitType`). QUOTA never resets: the
 * limit is a total for the life of the subscription.
 */
export const LIMIT_RECURRENCES = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY', 'QUOTA'] as const;
export type LimitRecurrence = (typeof LIMIT_RECURRENCES)[number];

export interface ServiceLimit {
  /** Invocations allowed per period. */
  limit: number;
  recurrence: LimitRecurrence;
  /** Periods per reset (the incumbent's `limitResetInterval`): 2 with WEEKLY resets every two weeks. */
  interval: number;
}

export type ServiceLimits = Partial<Record<MeteredService, ServiceLimit>>;

export interface Subscription {
  plan: SubscriptionPlan;
  /** Absent: never expires (NONE has nothing to expire; an operator may grant open-ended plans). */
  expiresAt?: Date;
  geographicBoundaries: GeoBoundary[];
  /** A service missing here is not part of the subscription (403 for its endpoints). */
  limits: ServiceLimits;
  /** When an ADMIN (or account creation) last set it; anchors quota windows. Absent until stored. */
  grantedAt?: Date;
}

/** NONE and expired subscriptions answer 402 on every metered endpoint. */
export function isSubscriptionActive(subscription: Subscription, now: Date): boolean {
  if (subscription.plan === 'NONE') return false;
  return subscription.expiresAt === undefined || subscription.expiresAt.getTime() > now.getTime();
}
