import type { identityV1 } from '@stormhook/proto';

/** identity's wire messages to the JSON bodies of the public contract (interface.md 2.9, 2.10). */

const iso = (epochMs: number): string => new Date(epochMs).toISOString();

function present<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

export function accountJson(a: identityV1.Account): Record<string, unknown> {
  return {
    id: a.id,
    userId: a.userId,
    type: a.type,
    createdAt: iso(a.createdAtEpochMs),
    updatedAt: iso(a.updatedAtEpochMs),
    ...present('mobilePhoneNumber', a.mobilePhoneNumber),
    ...present('location', a.location),
    ...present('company', a.company),
    ...present('industry', a.industry),
    ...present('profilePictureUrl', a.profilePictureUrl),
    subscriptionPlan: a.subscriptionPlan,
    emailVerified: a.emailVerified,
    mobilePhoneNumberVerified: a.mobilePhoneNumberVerified,
  };
}

export function userJson(u: identityV1.User): Record<string, unknown> {
  return {
    userId: u.userId,
    username: u.username,
    firstName: u.firstName,
    ...present('midName', u.midName),
    lastName: u.lastName,
    locale: u.locale,
    timezone: u.timezone,
    roles: u.role,
    status: u.status,
    ...(u.account ? { account: accountJson(u.account) } : {}),
  };
}

export function tokenJson(t: identityV1.TokenPair): Record<string, unknown> {
  return { username: t.username, type: t.type, accessToken: t.accessToken, refreshToken: t.refreshToken, expiresIn: t.expiresInS };
}

/** The incumbent's update-subscription answer plus what the subscription now holds. */
export function subscriptionJson(s: identityV1.Subscription): Record<string, unknown> {
  return {
    userId: s.userId,
    accountId: s.accountId,
    subscriptionPlan: s.subscriptionPlan,
    subscriptionExpirationEpoch: s.subscriptionExpirationEpochMs ?? null,
    active: s.active,
    geographicBoundaries: s.geographicBoundaries.map((b) => ({ country: b.country, ...(b.region ? { region: b.region } : {}) })),
    serviceLimits: s.limits.map((l) => ({ serviceName: l.service, maxInvocation: l.limit, limitType: l.recurrence, limitResetInterval: l.interval })),
    warnings: s.warnings,
  };
}

export function apiKeyJson(k: identityV1.ApiKeyInfo): Record<string, unknown> {
  return {
    keyId: k.keyId,
    name: k.name,
    maskedKey: k.maskedKey,
    createdAt: iso(k.createdAtEpochMs),
    ...(k.expiresAtEpochMs !== undefined ? { expiresAt: iso(k.expiresAtEpochMs) } : {}),
    ...(k.lastUsedAtEpochMs !== undefined ? { lastUsedAt: iso(k.lastUsedAtEpochMs) } : {}),
    revoked: k.revoked,
  };
}
