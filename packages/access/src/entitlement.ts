import { withinAny, type ResolvedLocation } from './geography.js';
import type { MeteredService } from './metered-services.js';
import type { AccessSnapshot } from './snapshot.js';
import { isSubscriptionActive } from './subscription.js';
import { canSignIn, type UserStatus } from './user-status.js';

/**
 * Why a standing registration may not deliver. WARNING: the names travel in the registration view
 * (`suspended.reason` of /v1) and clients may match on them; renaming one is a breaking change.
 */
export const SUSPENSION_REASONS = [
  'OWNER_NOT_FOUND',
  'USER_INACTIVE',
  'USER_EXPIRED',
  'USER_BLOCKED',
  'USER_DELETED',
  'SUBSCRIPTION_REQUIRED',
  'SUBSCRIPTION_EXPIRED',
  'NO_SUBSCRIPTION_FOR_SERVICE',
  'OUTSIDE_GEOGRAPHIC_BOUNDARIES',
] as const;
export type SuspensionReason = (typeof SUSPENSION_REASONS)[number];

/** The suspension of each status in which a user may not sign in. */
const STATUS_REASON: Readonly<Record<Exclude<UserStatus, 'ACTIVE'>, SuspensionReason>> = {
  INACTIVE: 'USER_INACTIVE',
  EXPIRED: 'USER_EXPIRED',
  BLOCKED: 'USER_BLOCKED',
  DELETED: 'USER_DELETED',
};

/** What one registration asks of its owner's entitlement. */
export interface EntitlementQuestion {
  /** The metered service of the registration's kind (ALARM_GEOMETRY, ALARM_POINT, ALARM_FORECAST). */
  service: MeteredService;
  /**
   * Where the registration lies (its city), as geo resolves it. Undefined when not known (yet): the
   * geography is then not judged, since it was checked when the registration was written.
   */
  location?: ResolvedLocation;
}

/**
 * `since` is when the entitlement ended, when the rules know it (an expiry); otherwise the caller
 * puts the moment it learnt of the change.
 */
export type Entitlement = { entitled: true } | { entitled: false; reason: SuspensionReason; sinceMs?: number };

/**
 * Whether the owner of a standing registration is still entitled to its deliveries: the same rules
 * decideAccess applies when the registration is written, for as long as it lives. The owner is the
 * account's owning user (interface.md 2.9: an account has one), so a blocked, deleted or paused user
 * (anything but ACTIVE: the states in which they may not sign in either) suspends every
 * registration of the account. ADMINs pass the subscription checks, as in decideAccess.
 * Expiry needs no event: it is judged against `now` on every call.
 */
export function decideEntitlement(snapshot: AccessSnapshot | undefined, question: EntitlementQuestion, now: Date): Entitlement {
  if (!snapshot) return { entitled: false, reason: 'OWNER_NOT_FOUND' };
  if (!canSignIn(snapshot.status)) return { entitled: false, reason: STATUS_REASON[snapshot.status as Exclude<UserStatus, 'ACTIVE'>] };
  if (snapshot.role === 'ADMIN') return { entitled: true };
  const subscription = snapshot.account?.subscription;
  if (!subscription || subscription.plan === 'NONE') return { entitled: false, reason: 'SUBSCRIPTION_REQUIRED' };
  if (!isSubscriptionActive(subscription, now)) {
    return { entitled: false, reason: 'SUBSCRIPTION_EXPIRED', ...(subscription.expiresAt ? { sinceMs: subscription.expiresAt.getTime() } : {}) };
  }
  if (!subscription.limits[question.service]) return { entitled: false, reason: 'NO_SUBSCRIPTION_FOR_SERVICE' };
  if (question.location && !withinAny(question.location, subscription.geographicBoundaries)) {
    return { entitled: false, reason: 'OUTSIDE_GEOGRAPHIC_BOUNDARIES' };
  }
  return { entitled: true };
}
