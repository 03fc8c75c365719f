import { ErrorMessages, outsideGeographicBoundaries } from '@stormhook/errors';
import { describeBoundaries, withinAny } from '../domain/geography.js';
import type { MeteredService } from '../domain/metered-services.js';
import { operationRule } from '../domain/operations.js';
import type { Principal } from '../domain/principal.js';
import { atLeast } from '../domain/roles.js';
import { isSubscriptionActive, type ServiceLimit } from '../domain/subscription.js';
import type { Account } from '../domain/account.js';
import type { GeoBoundary } from '../domain/geography.js';
import { quotaWindow, type QuotaWindow } from '../domain/quota-window.js';
import type { Clock } from '../ports/clock.js';
import type { GeoResolver } from '../ports/geo-resolver.js';

export interface GeoPoint {
  lat: number;
  lng: number;
}

/**
 * The gateway's answer for one request. Denials carry the status and the exact message of
 * interface.md section 7, so the gateway only copies them into an ErrorResponse.
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

export interface CheckAccessPorts {
  accounts: { findById(accountId: string): Promise<Account | undefined>; findByUserId(userId: string): Promise<Account | undefined> };
  geo: GeoResolver;
  clock: Clock;
}

/**
 * Decides whether `principal` may run `operationId` (at `location`, for operations that query a
 * place). Order: identity (401), role (403), subscription alive (402), service in plan (403), place
 * within the plan's geography (403). Quota counting is the gateway's; this only hands it the limit.
 * ADMINs pass every subscription check: operators must be able to look at any data.
 */
export class CheckAccess {
  constructor(private readonly ports: CheckAccessPorts) {}

  async checkAccess(principal: Principal | undefined, operationId: string, location?: GeoPoint): Promise<AccessDecision> {
    const rule = operationRule(operationId);
    if (!rule) return { decision: 'deny', status: 403, reason: 'unknown-operation', message: ErrorMessages.forbidden };
    if (rule.auth === 'public') return { decision: 'allow', quota: false, ...(principal?.accountId ? { accountId: principal.accountId } : {}) };
    if (!principal) return { decision: 'deny', status: 401, reason: 'unauthenticated', message: ErrorMessages.unauthorized };
    if (!atLeast(principal.role, rule.auth)) {
      return { decision: 'deny', status: 403, reason: 'role', message: `This operation needs role ${rule.auth} or above` };
    }
    if (!rule.service) return { decision: 'allow', quota: false, ...(principal.accountId ? { accountId: principal.accountId } : {}) };
    if (principal.role === 'ADMIN') return { decision: 'allow', service: rule.service, quota: false, ...(principal.accountId ? { accountId: principal.accountId } : {}) };

    // The token may predate the account (created after sign-in), so fall back to the user's account.
    const account = principal.accountId
      ? await this.ports.accounts.findById(principal.accountId)
      : await this.ports.accounts.findByUserId(principal.userId);
    if (!account || account.userId !== principal.userId || !isSubscriptionActive(account.subscription, this.ports.clock.now())) {
      return { decision: 'deny', status: 402, reason: 'subscription-required', message: ErrorMessages.subscriptionRequired };
    }
    const limit = account.subscription.limits[rule.service];
    if (!limit) return { decision: 'deny', status: 403, reason: 'no-subscription-for-endpoint', message: ErrorMessages.noSubscriptionForEndpoint };

    if (location) {
      const boundaries = account.subscription.geographicBoundaries;
      const resolved = await this.ports.geo.resolve(location);
      if (!resolved || !withinAny(resolved, boundaries)) {
        const { country, region } = describeBoundaries(boundaries);
        return {
          decision: 'deny',
          status: 403,
          reason: 'outside-geography',
          message: outsideGeographicBoundaries(location.lat, location.lng, country, region),
          location,
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
      window: quotaWindow(limit, this.ports.clock.now(), grantedAt, expiresAt),
      accountId: account.id,
      geographicBoundaries: account.subscription.geographicBoundaries,
    };
  }
}
