export {
  SUBSCRIPTION_PLANS,
  LIMIT_RECURRENCES,
  isSubscriptionPlan,
  isSubscriptionActive,
  type SubscriptionPlan,
  type LimitRecurrence,
  type ServiceLimit,
  type ServiceLimits,
  type Subscription,
} from '@stormhook/access';
import {
  COUNTRY_CODES,
  type GeoBoundary,
  isCountryCode,
  isMeteredService,
  LIMIT_RECURRENCES,
  type LimitRecurrence,
  METERED_SERVICES,
  type ServiceLimit,
  type ServiceLimits,
} from '@stormhook/access';
import { validation } from '../errors.js';
import { fail, ok, type Result } from '../result.js';

/** Upper bound of a limit: far above any plan, low enough that counters never lose integer precision. */
export const MAX_LIMIT = 1_000_000_000;
export const MAX_INTERVAL = 366;
const MAX_BOUNDARIES = 100;

export function parseBoundary(field: string, entry: unknown): Result<GeoBoundary> {
  if (typeof entry !== 'object' || entry === null) return fail(validation(field, 'must be an object {country, region?}'));
  const { country, region } = entry as { country?: unknown; region?: unknown };
  if (!isCountryCode(country)) return fail(validation(`${field}.country`, `must be one of ${COUNTRY_CODES.join(', ')}`));
  if (region === undefined || region === null || region === '') return ok({ country });
  if (typeof region !== 'string' || region.trim().length === 0 || region.length > 128) {
    return fail(validation(`${field}.region`, 'must be a region name of at most 128 characters'));
  }
  return ok({ country, region: region.trim() });
}

export function parseBoundaries(field: string, value: unknown): Result<GeoBoundary[]> {
  if (!Array.isArray(value)) return fail(validation(field, 'must be a list of {country, region?}'));
  if (value.length > MAX_BOUNDARIES) return fail(validation(field, `must have at most ${MAX_BOUNDARIES} entries`));
  const out: GeoBoundary[] = [];
  for (const [index, entry] of value.entries()) {
    const boundary = parseBoundary(`${field}[${index}]`, entry);
    if (!boundary.ok) return boundary;
    out.push(boundary.value);
  }
  return ok(out);
}

export function parseServiceLimit(field: string, value: unknown): Result<ServiceLimit> {
  if (typeof value !== 'object' || value === null) return fail(validation(field, 'must be an object {limit, recurrence, interval?}'));
  const { limit, recurrence, interval } = value as { limit?: unknown; recurrence?: unknown; interval?: unknown };
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0 || limit > MAX_LIMIT) {
    return fail(validation(`${field}.limit`, `must be an integer from 0 to ${MAX_LIMIT}`));
  }
  if (typeof recurrence !== 'string' || !(LIMIT_RECURRENCES as readonly string[]).includes(recurrence)) {
    return fail(validation(`${field}.recurrence`, `must be one of ${LIMIT_RECURRENCES.join(', ')}`));
  }
  const every = interval ?? 1;
  if (typeof every !== 'number' || !Number.isInteger(every) || every < 1 || every > MAX_INTERVAL) {
    return fail(validation(`${field}.interval`, `must be an integer from 1 to ${MAX_INTERVAL}`));
  }
  return ok({ limit, recurrence: recurrence as LimitRecurrence, interval: every });
}

/** `{ SERVICE: {limit, recurrence, interval?} }` keyed by the metered service names. */
export function parseServiceLimits(field: string, value: unknown): Result<ServiceLimits> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(validation(field, 'must be a map of service name to {limit, recurrence, interval?}'));
  }
  const out: ServiceLimits = {};
  for (const [service, raw] of Object.entries(value)) {
    if (!isMeteredService(service)) {
      return fail(validation(`${field}.${service}`, `unknown service; known services are ${METERED_SERVICES.join(', ')}`));
    }
    const limit = parseServiceLimit(`${field}.${service}`, raw);
    if (!limit.ok) return limit;
    out[service] = limit.value;
  }
  return ok(out);
}
