import type { identityV1 } from '@stormhook/proto';
import { type GeoBoundary, type Principal } from '@stormhook/access';
import type { ServiceLimits } from '../domain/subscription.js';
import type { ApiKeyView, CreatedApiKey } from '../usecases/api-keys.js';
import type { SubscriptionView } from '../usecases/accounts/subscriptions.js';
import type { AccountView, UserView } from '../usecases/views.js';

/** Domain views to wire messages. Optional fields stay absent rather than becoming "". */

const ms = (date: Date | undefined): number | undefined => (date === undefined ? undefined : date.getTime());

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

export function accountMessage(a: AccountView): identityV1.Account {
  return {
    id: a.id,
    userId: a.userId,
    type: a.type,
    createdAtEpochMs: a.createdAt.getTime(),
    updatedAtEpochMs: a.updatedAt.getTime(),
    ...optional('mobilePhoneNumber', a.mobilePhoneNumber),
    ...optional('location', a.location),
    ...optional('company', a.company),
    ...optional('industry', a.industry),
    ...optional('profilePictureUrl', a.profilePictureUrl),
    subscriptionPlan: a.subscriptionPlan,
    emailVerified: a.emailVerified,
    mobilePhoneNumberVerified: a.mobilePhoneNumberVerified,
  };
}

export function userMessage(u: UserView): identityV1.User {
  return {
    userId: u.userId,
    username: u.username,
    firstName: u.firstName,
    lastName: u.lastName,
    ...optional('midName', u.midName),
    locale: u.locale,
    timezone: u.timezone,
    role: u.roles,
    status: u.status,
    account: u.account ? accountMessage(u.account) : null,
  };
}

export function boundaryMessages(boundaries: readonly GeoBoundary[]): identityV1.GeoBoundary[] {
  return boundaries.map((b) => ({ country: b.country, region: b.region ?? '' }));
}

export function limitMessages(limits: ServiceLimits): identityV1.ServiceLimit[] {
  return Object.entries(limits).map(([service, l]) => ({ service, limit: l.limit, recurrence: l.recurrence, interval: l.interval }));
}

export function subscriptionMessage(s: SubscriptionView): identityV1.Subscription {
  return {
    accountId: s.accountId,
    userId: s.userId,
    subscriptionPlan: s.subscriptionPlan,
    ...optional('subscriptionExpirationEpochMs', ms(s.expiresAt)),
    active: s.active,
    geographicBoundaries: boundaryMessages(s.geographicBoundaries),
    limits: limitMessages(s.limits),
    warnings: s.warnings,
  };
}

export function principalMessage(p: Principal): identityV1.Principal {
  return { userId: p.userId, accountId: p.accountId ?? '', role: p.role, username: p.username, via: p.via };
}

export function createdApiKeyMessage(k: CreatedApiKey): identityV1.CreateApiKeyResponse {
  return {
    keyId: k.keyId,
    name: k.name,
    key: k.key,
    createdAtEpochMs: k.createdAt.getTime(),
    ...optional('expiresAtEpochMs', ms(k.expiresAt)),
  };
}

export function apiKeyInfoMessage(k: ApiKeyView): identityV1.ApiKeyInfo {
  return {
    keyId: k.keyId,
    name: k.name,
    maskedKey: k.maskedKey,
    createdAtEpochMs: k.createdAt.getTime(),
    ...optional('expiresAtEpochMs', ms(k.expiresAt)),
    ...optional('lastUsedAtEpochMs', ms(k.lastUsedAt)),
    revoked: k.revoked,
  };
}
