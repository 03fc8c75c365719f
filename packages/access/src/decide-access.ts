import { ErrorMessages, outsideGeographicBoundaries } from '@stormhook/errors';
import { describeBoundaries, withinAny, type GeoBoundary, type ResolvedLocation } from './geography.js';
import type { MeteredService } from './metered-services.js';
import { operationRule } from './operations.js';
import type { Principal } from './principal.js';
import { quotaWindow, type QuotaWindow } from './quota-window.js';
import { atLeast } from './roles.js';
import { isSubscriptionActive, type ServiceLimit, type Subscription } from './subscription.js';

export interface GeoPoint {
  lat: number;
  lng: number;
}

/**
 * An area an operation names by id (a city, district or neighbourhood of a geometry or ADMINISTRATIVE
 * alarm, a boundary endpoint), resolved by the caller: where it lies, and a point of it that the 403
 * message names (the contract's message has a [lat, lng]).
 */
export interface QueriedArea {
  area: ResolvedLocation;
  point: GeoPoint;
}

const isQueriedArea = (location: GeoPoint | QueriedArea): location is QueriedArea => 'area' in location;

/** What a decision reads of the caller's account: the owner and the subscription. */
export interface AccessAccount {
  id: string;
  userId: string;
  subscription: Subscription;
}

/**
 * The answer for one request. Denials carry the status and the exact message of interface.md
 * section 7, so the gateway only copies them into an ErrorResponse.
 */
export type AccessDecision =
  | {
      decision: 'allow';
      /** The metered service, when the operation has one. */
      service?: MeteredService;
      /** Whether the call counts against the limit (the gateway counts; absent limit: unmetered, e.g. ADMIN). */
      quota: boolean;
      limit?: ServiceLimit;
      /** The counting window of `limit` at the time of the check. */
      window?: QuotaWindow;
      accountId?: string;
      /** Where the subscription allows queries, for handlers that filter by area (absent for ADMINs). */
      geographicBoundaries?: GeoBoundary[];
    }
  | { decision: 'deny'; status: 401; reason: 'unauthenticated'; message: string }
  | { decision: 'deny'; status: 403; reason: 'role' | 'unknown-operation'; message: string }
  | { decision: 'deny'; status: 402; reason: 'subscription-required'; message: string }
  | { decision: 'deny'; status: 403; reason: 'no-subscription-for-endpoint'; message: string }
  | {
      decision: 'deny';
      status: 403;
      reason: 'outside-geography';
      message: string;
      location: GeoPoint;
      /** The allowed area as named in the message. */
      country: string;
      region: string;
    };

export type AccessDenial = Extract<AccessDecision, { decision: 'deny' }>;

/** Machine-readable reasons of denials. WARNING: the gateway and clients may match on them. */
export const DENIAL_REASONS: Readonly<Record<AccessDenial['reason'], string>> = {
  unauthenticated: 'UNAUTHENTICATED',
  role: 'ROLE_REQUIRED',
  'unknown-operation': 'UNKNOWN_OPERATION',
  'subscription-required': 'SUBSCRIPTION_REQUIRED',
  'no-subscription-for-endpoint': 'NO_SUBSCRIPTION_FOR_ENDPOINT',
  'outside-geography': 'OUTSIDE_GEOGRAPHIC_BOUNDARIES',
};

/** The 401 of a credential whose user may no longer act (blocked, deleted, demoted away from API keys). */
export const SESSION_ENDED = 'The session has ended; sign in again';

export interface DecisionInputs {
  /**
   * The caller's account. Called only when the decision needs it (not for ADMINs or unmetered
   * operations), so identity reads its database only then and the gateway hands over its snapshot.
   */
  account(): Promise<AccessAccount | undefined> | AccessAccount | undefined;
  /** Country and region of a point (the geo service); called last, only when everything else allows. */
  resolve(point: GeoPoint): Promise<ResolvedLocation | undefined>;
  now: Date;
}

/**
 * Decides whether `principal` may run `operationId` (at `location`, for operations that query a
 * place). Order: identity (401), role (403), subscription alive (402), service in plan (403), place
 * within the plan's geography (403). Quota counting is the gateway's; this only hands it the limit.
 * ADMINs pass every subscription check: operators must be able to look at any data.
 * The one home of these rules: identity's CheckAccess rpc and the gateway's in-memory check both call it.
 */
export async function decideAccess(
  principal: Principal | undefined,
  operationId: string,
  location: GeoPoint | QueriedArea | undefined,
  inputs: DecisionInputs,
): Promise<AccessDecision> {
  const rule = operationRule(operationId);
  if (!rule) return { decision: 'deny', status: 403, reason: 'unknown-operation', message: ErrorMessages.forbidden };
  if (rule.auth === 'public') return { decision: 'allow', quota: false, ...(principal?.accountId ? { accountId: principal.accountId } : {}) };
  if (!principal) return { decision: 'deny', status: 401, reason: 'unauthenticated', message: ErrorMessages.unauthorized };
  if (!atLeast(principal.role, rule.auth)) {
    return { decision: 'deny', status: 403, reason: 'role', message: `This operation needs role ${rule.auth} or above` };
  }
  if (!rule.service) return { decision: 'allow', quota: false, ...(principal.accountId ? { accountId: principal.accountId } : {}) };
  if (principal.role === 'ADMIN')
    return { decision: 'allow', service: rule.service, quota: false, ...(principal.accountId ? { accountId: principal.accountId } : {}) };

  const account = await inputs.account();
  if (!account || account.userId !== principal.userId || !isSubscriptionActive(account.subscription, inputs.now)) {
    return { decision: 'deny', status: 402, reason: 'subscription-required', message: ErrorMessages.subscriptionRequired };
  }
  const limit = account.subscription.limits[rule.service];
  if (!limit) return { decision: 'deny', status: 403, reason: 'no-subscription-for-endpoint', message: ErrorMessages.noSubscriptionForEndpoint };

  if (location) {
    const boundaries = account.subscription.geographicBoundaries;
    const resolved = isQueriedArea(location) ? location.area : await inputs.resolve(location);
    if (!resolved || !withinAny(resolved, boundaries)) {
      const { country, region } = describeBoundaries(boundaries);
      const point = isQueriedArea(location) ? location.point : location;
      return {
        decision: 'deny',
        status: 403,
        reason: 'outside-geography',
        message: outsideGeographicBoundaries(point.lat, point.lng, country, region),
        location: point,
        country,
        region,
      };
    }
  }
  const { grantedAt, expiresAt } = account.subscription;
  return {
    decision: 'allow',
    service: rule.service,
    quota: rule.quota,
    limit,
    window: quotaWindow(limit, inputs.now, grantedAt, expiresAt),
    accountId: account.id,
    geographicBoundaries: account.subscription.geographicBoundaries,
  };
}
