import { validation } from '../errors.js';
import { fail, ok, type Result } from '../result.js';
import { type GeoBoundary, type MeteredService } from '@stormhook/access';
import {
  isSubscriptionPlan,
  parseBoundaries,
  parseServiceLimits,
  SUBSCRIPTION_PLANS,
  type LimitRecurrence,
  type ServiceLimits,
  type Subscription,
  type SubscriptionPlan,
} from './subscription.js';

/** What a plan grants when an account gets it without explicit details. */
export interface PlanDefaults {
  /** How long the plan runs from the moment it is granted; absent: no expiry. */
  duration?: { days?: number; months?: number };
  geographicBoundaries: GeoBoundary[];
  limits: ServiceLimits;
}

export type PlanTable = Readonly<Record<SubscriptionPlan, PlanDefaults>>;

const WHOLE_SERVICE_AREA: GeoBoundary[] = [{ country: 'TUR' }, { country: 'CTR' }];

function limits(services: readonly MeteredService[], limit: number, recurrence: LimitRecurrence): ServiceLimits {
  return Object.fromEntries(services.map((service) => [service, { limit, recurrence, interval: 1 }]));
}

const DATA: MeteredService[] = ['PRECIPITATION', 'THUNDERSTORM', 'FORECAST', 'GEO'];
const ALL: MeteredService[] = [...DATA, 'ALARM_GEOMETRY', 'ALARM_FORECAST', 'ALARM_POINT'];

/**
 * The default table. Numbers are a starting point for sales, not a contract (interface.md 8 leaves
 * them open): an operator overrides any row with {@link planTableWithOverrides}. Basic buys the data
 * endpoints and geometry alarms; premium adds forecast and point alarms and ten times the volume;
 * a trial tastes everything for two weeks; CUSTOM starts empty for an ADMIN to fill in.
 */
export const DEFAULT_PLAN_TABLE: PlanTable = {
  NONE: { geographicBoundaries: [], limits: {} },
  TRIAL: { duration: { days: 14 }, geographicBoundaries: WHOLE_SERVICE_AREA, limits: limits(ALL, 100, 'DAILY') },
  BASIC_MONTHLY: {
    duration: { months: 1 },
    geographicBoundaries: WHOLE_SERVICE_AREA,
    limits: limits([...DATA, 'ALARM_GEOMETRY'], 10_000, 'MONTHLY'),
  },
  BASIC_YEARLY: {
    duration: { months: 12 },
    geographicBoundaries: WHOLE_SERVICE_AREA,
    limits: limits([...DATA, 'ALARM_GEOMETRY'], 10_000, 'MONTHLY'),
  },
  PREMIUM_MONTHLY: { duration: { months: 1 }, geographicBoundaries: WHOLE_SERVICE_AREA, limits: limits(ALL, 100_000, 'MONTHLY') },
  PREMIUM_YEARLY: { duration: { months: 12 }, geographicBoundaries: WHOLE_SERVICE_AREA, limits: limits(ALL, 100_000, 'MONTHLY') },
  CUSTOM: { duration: { months: 12 }, geographicBoundaries: WHOLE_SERVICE_AREA, limits: {} },
};

/** Adds calendar months in UTC, clamping to the month's last day (Jan 31 + 1 month = Feb 28/29). */
function addMonths(from: Date, months: number): Date {
  const d = new Date(from.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

export function expiryOf(duration: PlanDefaults['duration'], from: Date): Date | undefined {
  if (duration === undefined) return undefined;
  let at = from;
  if (duration.months) at = addMonths(at, duration.months);
  if (duration.days) at = new Date(at.getTime() + duration.days * 86_400_000);
  return at;
}

/** The subscription an account gets for `plan` at `now`; copies, so callers may change the result. */
export function defaultSubscription(plan: SubscriptionPlan, now: Date, table: PlanTable = DEFAULT_PLAN_TABLE): Subscription {
  const row = table[plan];
  const expiresAt = expiryOf(row.duration, now);
  return {
    plan,
    ...(expiresAt ? { expiresAt } : {}),
    geographicBoundaries: row.geographicBoundaries.map((b) => ({ ...b })),
    limits: Object.fromEntries(Object.entries(row.limits).map(([service, limit]) => [service, { ...limit }])),
  };
}

function parseDuration(field: string, value: unknown): Result<PlanDefaults['duration']> {
  if (value === undefined || value === null) return ok(undefined);
  if (typeof value !== 'object') return fail(validation(field, 'must be {days?, months?}'));
  const { days, months } = value as { days?: unknown; months?: unknown };
  for (const [name, n] of [
    ['days', days],
    ['months', months],
  ] as const) {
    if (n !== undefined && (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 1200)) {
      return fail(validation(`${field}.${name}`, 'must be an integer from 0 to 1200'));
    }
  }
  return ok({ ...(days !== undefined ? { days: days as number } : {}), ...(months !== undefined ? { months: months as number } : {}) });
}

/**
 * The default table with operator overrides applied, for example from a JSON config variable:
 * `{"TRIAL": {"duration": {"days": 30}, "geographicBoundaries": [{"country": "TUR"}], "limits": {"FORECAST":
 * {"limit": 500, "recurrence": "DAILY"}}}}`. A row replaces the default row whole; errors name the path.
 */
export function planTableWithOverrides(overrides: unknown, field = 'plans'): Result<PlanTable> {
  if (overrides === undefined || overrides === null) return ok(DEFAULT_PLAN_TABLE);
  if (typeof overrides !== 'object' || Array.isArray(overrides)) return fail(validation(field, 'must be a map of plan to defaults'));
  const table: Record<SubscriptionPlan, PlanDefaults> = { ...DEFAULT_PLAN_TABLE };
  for (const [plan, raw] of Object.entries(overrides)) {
    if (!isSubscriptionPlan(plan)) return fail(validation(`${field}.${plan}`, `unknown plan; plans are ${SUBSCRIPTION_PLANS.join(', ')}`));
    if (typeof raw !== 'object' || raw === null) return fail(validation(`${field}.${plan}`, 'must be an object'));
    const row = raw as { duration?: unknown; geographicBoundaries?: unknown; limits?: unknown };
    const duration = parseDuration(`${field}.${plan}.duration`, row.duration);
    if (!duration.ok) return duration;
    const boundaries = parseBoundaries(`${field}.${plan}.geographicBoundaries`, row.geographicBoundaries ?? []);
    if (!boundaries.ok) return boundaries;
    const planLimits = parseServiceLimits(`${field}.${plan}.limits`, row.limits ?? {});
    if (!planLimits.ok) return planLimits;
    table[plan] = {
      ...(duration.value ? { duration: duration.value } : {}),
      geographicBoundaries: boundaries.value,
      limits: planLimits.value,
    };
  }
  return ok(table);
}
