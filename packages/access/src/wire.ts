import type { geoV1, identityV1 } from '@stormhook/proto';
import { DENIAL_REASONS, type AccessAccount, type AccessDecision } from './decide-access.js';
import { isCountryCode, type GeoBoundary, type ResolvedLocation } from './geography.js';
import { isMeteredService } from './metered-services.js';
import { isRole } from './roles.js';
import type { AccessSnapshot } from './snapshot.js';
import { isSubscriptionPlan, LIMIT_RECURRENCES, type LimitRecurrence, type ServiceLimits } from './subscription.js';
import { isUserStatus } from './user-status.js';

/** The snapshot as identity sends it (GetAccessSnapshot). */
export function snapshotMessage(snapshot: AccessSnapshot | undefined): identityV1.AccessSnapshot {
  if (!snapshot) return { found: false, userId: '', username: '', role: '', status: '', account: null };
  const account = snapshot.account;
  return {
    found: true,
    userId: snapshot.userId,
    username: snapshot.username,
    role: snapshot.role,
    status: snapshot.status,
    ...(snapshot.accessTokensValidFrom ? { accessTokensValidFromEpochMs: snapshot.accessTokensValidFrom.getTime() } : {}),
    account: account
      ? {
          accountId: account.id,
          subscriptionPlan: account.subscription.plan,
          ...(account.subscription.grantedAt ? { grantedAtEpochMs: account.subscription.grantedAt.getTime() } : {}),
          ...(account.subscription.expiresAt ? { expiresAtEpochMs: account.subscription.expiresAt.getTime() } : {}),
          geographicBoundaries: boundaryMessages(account.subscription.geographicBoundaries),
          limits: Object.entries(account.subscription.limits).map(([service, l]) => ({
            service,
            limit: l.limit,
            recurrence: l.recurrence,
            interval: l.interval,
          })),
        }
      : null,
  };
}

export class SnapshotFormatError extends Error {
  constructor(field: string, problem: string) {
    super(`access snapshot: ${field} ${problem}`);
    this.name = 'SnapshotFormatError';
  }
}

/**
 * Reads a snapshot received from identity. Anything this version does not know (a new role, plan or
 * service) is an error naming the field rather than a guess: a guessed role could grant access.
 * Undefined: identity knows no such user.
 */
export function snapshotFromMessage(message: identityV1.AccessSnapshot): AccessSnapshot | undefined {
  if (!message.found) return undefined;
  if (!isRole(message.role)) throw new SnapshotFormatError('role', `is not a known role: ${message.role}`);
  if (!isUserStatus(message.status)) throw new SnapshotFormatError('status', `is not a known status: ${message.status}`);
  const snapshot: AccessSnapshot = {
    userId: message.userId,
    username: message.username,
    role: message.role,
    status: message.status,
    ...(message.accessTokensValidFromEpochMs !== undefined && message.accessTokensValidFromEpochMs !== null
      ? { accessTokensValidFrom: new Date(Number(message.accessTokensValidFromEpochMs)) }
      : {}),
  };
  const a = message.account;
  if (!a) return snapshot;
  if (!isSubscriptionPlan(a.subscriptionPlan)) throw new SnapshotFormatError('account.subscriptionPlan', `is not a known plan: ${a.subscriptionPlan}`);
  const geographicBoundaries: GeoBoundary[] = a.geographicBoundaries.map((b, i) => {
    if (!isCountryCode(b.country)) throw new SnapshotFormatError(`account.geographicBoundaries[${i}].country`, `is not a known country: ${b.country}`);
    return { country: b.country, ...(b.region ? { region: b.region } : {}) };
  });
  const limits: ServiceLimits = {};
  for (const [i, l] of a.limits.entries()) {
    if (!isMeteredService(l.service)) throw new SnapshotFormatError(`account.limits[${i}].service`, `is not a known service: ${l.service}`);
    if (!(LIMIT_RECURRENCES as readonly string[]).includes(l.recurrence))
      throw new SnapshotFormatError(`account.limits[${i}].recurrence`, `is not a known recurrence: ${l.recurrence}`);
    limits[l.service] = { limit: Number(l.limit), recurrence: l.recurrence as LimitRecurrence, interval: l.interval };
  }
  const account: AccessAccount = {
    id: a.accountId,
    userId: message.userId,
    subscription: {
      plan: a.subscriptionPlan,
      geographicBoundaries,
      limits,
      ...(a.grantedAtEpochMs !== undefined ? { grantedAt: new Date(Number(a.grantedAtEpochMs)) } : {}),
      ...(a.expiresAtEpochMs !== undefined ? { expiresAt: new Date(Number(a.expiresAtEpochMs)) } : {}),
    },
  };
  return { ...snapshot, account };
}

export function boundaryMessages(boundaries: readonly GeoBoundary[]): identityV1.GeoBoundary[] {
  return boundaries.map((b) => ({ country: b.country, region: b.region ?? '' }));
}

/**
 * The boundaries of a decision as the gateway's handlers read them back (accessOf): an empty region
 * is the whole country. A country this version does not know covers nothing rather than everything.
 */
export function boundariesFromMessages(messages: readonly identityV1.GeoBoundary[]): GeoBoundary[] {
  return messages.flatMap((b) => (isCountryCode(b.country) ? [{ country: b.country, ...(b.region ? { region: b.region } : {}) }] : []));
}

/** A decision in the shape CheckAccess answers and the gateway's handlers read (accessOf). */
export function decisionResponse(d: AccessDecision): identityV1.CheckAccessResponse {
  if (d.decision === 'deny') {
    return {
      allowed: false,
      httpStatus: d.status,
      reason: DENIAL_REASONS[d.reason],
      message: d.message,
      service: '',
      metered: false,
      quota: null,
      accountId: '',
      geographicBoundaries: [],
    };
  }
  const metered = d.quota && d.limit !== undefined && d.window !== undefined;
  return {
    allowed: true,
    httpStatus: 0,
    reason: '',
    message: '',
    service: d.service ?? '',
    metered,
    quota:
      metered && d.limit && d.window
        ? {
            limit: d.limit.limit,
            recurrence: d.limit.recurrence,
            interval: d.limit.interval,
            windowStartEpochMs: d.window.start.getTime(),
            windowEndEpochMs: d.window.end.getTime(),
          }
        : null,
    accountId: d.accountId ?? '',
    geographicBoundaries: boundaryMessages(d.geographicBoundaries ?? []),
  };
}

/** The geo service's answer as the geography check reads it: the country and the city (province), which subscription regions name. */
export function resolvedLocation(answer: geoV1.ResolvePointResponse): ResolvedLocation | undefined {
  if (!answer.countryCode) return undefined;
  const region = answer.city?.name;
  return { country: answer.countryCode, ...(region ? { region } : {}) };
}

/**
 * Where a city of the geo service lies, as the geography check reads it: its country, and itself as
 * the region, since subscription regions name cities (provinces). Undefined without a country.
 */
export function cityLocation(city: Pick<geoV1.City, 'countryCode' | 'name'>): ResolvedLocation | undefined {
  if (!city.countryCode) return undefined;
  return { country: city.countryCode, ...(city.name ? { region: city.name } : {}) };
}
