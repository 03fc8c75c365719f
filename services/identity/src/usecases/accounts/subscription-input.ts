import { validation } from '../../errors.js';
import { type GeoBoundary, METERED_SERVICES, parseServiceName } from '@stormhook/access';
import { LIMIT_RECURRENCES, MAX_INTERVAL, MAX_LIMIT, parseBoundary, type LimitRecurrence, type ServiceLimits } from '../../domain/subscription.js';
import { fail, ok, type Result } from '../../result.js';

/**
 * The update-subscription body as the incumbent documents it (incumbent.md section 4):
 * `{accountId, userId, subscriptionPlan, planDetails: {subscriptionExpirationEpoch, details: [{
 * limitResetRecurrence: {limitType, limitResetInterval}, geoBoundary: {country, region},
 * apiServiceLimits: [{version, serviceName, maxInvocation}]}]}}`.
 */
export interface IncumbentSubscriptionBody {
  accountId?: unknown;
  userId?: unknown;
  subscriptionPlan?: unknown;
  planDetails?: {
    subscriptionExpirationEpoch?: unknown;
    details?: unknown;
  };
}

/** What {@link Subscriptions.updateSubscription} takes; absent parts come from the plan's defaults. */
export interface SubscriptionUpdateInput {
  accountId: unknown;
  /** When given it must be the account's owner (a cross-check against typos in operator scripts). */
  userId?: unknown;
  subscriptionPlan: unknown;
  /** Epoch milliseconds or a Date; null: never expires. */
  expiresAt?: unknown;
  geographicBoundaries?: unknown;
  limits?: unknown;
}

function parseRecurrence(field: string, raw: unknown): Result<{ recurrence: LimitRecurrence; interval: number }> {
  const { limitType, limitResetInterval } = (typeof raw === 'object' && raw !== null ? raw : {}) as { limitType?: unknown; limitResetInterval?: unknown };
  if (typeof limitType !== 'string' || !(LIMIT_RECURRENCES as readonly string[]).includes(limitType)) {
    return fail(validation(`${field}.limitType`, `must be one of ${LIMIT_RECURRENCES.join(', ')}`));
  }
  const interval = limitResetInterval ?? 1;
  if (typeof interval !== 'number' || !Number.isInteger(interval) || interval < 1 || interval > MAX_INTERVAL) {
    return fail(validation(`${field}.limitResetInterval`, `must be an integer from 1 to ${MAX_INTERVAL}`));
  }
  return ok({ recurrence: limitType as LimitRecurrence, interval });
}

/**
 * Maps the incumbent body to {@link SubscriptionUpdateInput}. Every detail contributes its boundary and
 * its service limits with the detail's recurrence; a service named twice is an error (which limit would
 * win?). Only API version v1 exists. Errors name the path inside the incumbent body.
 */
export function fromIncumbentBody(body: IncumbentSubscriptionBody): Result<SubscriptionUpdateInput> {
  const base = { accountId: body.accountId, userId: body.userId, subscriptionPlan: body.subscriptionPlan };
  const details = body.planDetails;
  if (details === undefined || details === null) return ok(base);
  if (typeof details !== 'object') return fail(validation('planDetails', 'must be an object'));
  const expiresAt = details.subscriptionExpirationEpoch;
  if (details.details === undefined || details.details === null) return ok({ ...base, ...(expiresAt !== undefined ? { expiresAt } : {}) });
  if (!Array.isArray(details.details)) return fail(validation('planDetails.details', 'must be a list'));

  const boundaries: GeoBoundary[] = [];
  const limits: ServiceLimits = {};
  for (const [i, raw] of details.details.entries()) {
    const at = `planDetails.details[${i}]`;
    if (typeof raw !== 'object' || raw === null) return fail(validation(at, 'must be an object'));
    const detail = raw as { limitResetRecurrence?: unknown; geoBoundary?: unknown; apiServiceLimits?: unknown };
    if (detail.geoBoundary !== undefined && detail.geoBoundary !== null) {
      const b = parseBoundary(`${at}.geoBoundary`, detail.geoBoundary);
      if (!b.ok) return b;
      if (!boundaries.some((x) => x.country === b.value.country && x.region === b.value.region)) boundaries.push(b.value);
    }
    if (detail.apiServiceLimits === undefined || detail.apiServiceLimits === null) continue;
    if (!Array.isArray(detail.apiServiceLimits)) return fail(validation(`${at}.apiServiceLimits`, 'must be a list'));
    const recurrence = parseRecurrence(`${at}.limitResetRecurrence`, detail.limitResetRecurrence);
    if (!recurrence.ok) return recurrence;
    for (const [j, rawLimit] of detail.apiServiceLimits.entries()) {
      const lat = `${at}.apiServiceLimits[${j}]`;
      const entry = (rawLimit ?? {}) as { version?: unknown; serviceName?: unknown; maxInvocation?: unknown };
      if (entry.version !== undefined && entry.version !== 'v1') return fail(validation(`${lat}.version`, 'must be v1'));
      const service = typeof entry.serviceName === 'string' ? parseServiceName(entry.serviceName) : undefined;
      if (!service) return fail(validation(`${lat}.serviceName`, `unknown service; known services are ${METERED_SERVICES.join(', ')}`));
      if (limits[service]) return fail(validation(`${lat}.serviceName`, `${service} is limited twice`));
      const max = entry.maxInvocation;
      if (typeof max !== 'number' || !Number.isInteger(max) || max < 0 || max > MAX_LIMIT) {
        return fail(validation(`${lat}.maxInvocation`, `must be an integer from 0 to ${MAX_LIMIT}`));
      }
      limits[service] = { limit: max, ...recurrence.value };
    }
  }
  return ok({
    ...base,
    ...(expiresAt !== undefined ? { expiresAt } : {}),
    ...(boundaries.length > 0 ? { geographicBoundaries: boundaries } : {}),
    limits,
  });
}
