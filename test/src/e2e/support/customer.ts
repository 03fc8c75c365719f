import { randomBytes } from 'node:crypto';
import type { ApiClient } from './api-client.js';

/** A metered service of a subscription, as the README's examples name them. */
export type ServiceName = 'precipitations' | 'thunderstorms' | 'forecasts' | 'geo' | 'alarm-geometries' | 'alarm-points' | 'alarm-forecasts';

export const ALL_SERVICES: readonly ServiceName[] = [
  'precipitations',
  'thunderstorms',
  'forecasts',
  'geo',
  'alarm-geometries',
  'alarm-points',
  'alarm-forecasts',
];

export interface CustomerSpec {
  role?: string;
  /** Geography of the subscription, e.g. {country: 'TUR', region: 'Ankara'}. */
  geoBoundary?: { country: string; region?: string };
  /** maxInvocation per service per day; services left out are not granted. */
  limits?: Partial<Record<ServiceName, number>>;
  /** A plan without a CUSTOM subscription (NONE: no access to data; 402). */
  plan?: string;
  company?: string;
}

export interface Customer {
  username: string;
  password: string;
  userId: string;
  accountId: string;
  token: string;
  refreshToken: string;
}

let counter = 0;

/**
 * A customer made the way the README's "Accounts, users and subscriptions" does it: the ADMIN creates
 * the user with an initial password, gives it an account, sets a CUSTOM subscription (plan, expiry,
 * geography, limits per service), and the user logs in.
 */
export async function createCustomer(api: ApiClient, adminToken: string, spec: CustomerSpec = {}): Promise<Customer> {
  counter += 1;
  const username = `customer-${counter}-${randomBytes(3).toString('hex')}@e2e.example.com`;
  const password = `pw-${randomBytes(9).toString('base64url')}`;
  const created = await api.expect(201, 'POST', '/v1/users/create', {
    token: adminToken,
    body: { username, firstName: 'Weather', lastName: `Customer ${counter}`, role: spec.role ?? 'API_USER', password },
  });
  const userId = String(created.body.userId);
  const account = await api.expect(200, 'POST', '/v1/accounts/create', {
    token: adminToken,
    body: { userId, type: 'ORGANIZATION', subscriptionPlan: 'NONE', company: spec.company ?? `E2E Energy ${counter}` },
  });
  const accountId = String(account.body.id);
  if (spec.plan === undefined || spec.plan === 'CUSTOM') {
    const limits = spec.limits ?? Object.fromEntries(ALL_SERVICES.map((s) => [s, 10_000]));
    await api.expect(200, 'POST', '/v1/accounts/update-subscription', {
      token: adminToken,
      body: {
        accountId,
        subscriptionPlan: 'CUSTOM',
        planDetails: {
          subscriptionExpirationEpoch: Date.now() + 30 * 86_400_000,
          details: [
            {
              limitResetRecurrence: { limitType: 'DAILY', limitResetInterval: 1 },
              geoBoundary: spec.geoBoundary ?? { country: 'TUR' },
              apiServiceLimits: Object.entries(limits).map(([serviceName, maxInvocation]) => ({ version: 'v1', serviceName, maxInvocation })),
            },
          ],
        },
      },
    });
  } else if (spec.plan !== 'NONE') {
    await api.expect(200, 'POST', '/v1/accounts/update-subscription', { token: adminToken, body: { accountId, subscriptionPlan: spec.plan } });
  }
  const session = await api.login(username, password);
  return { username, password, userId, accountId, token: session.accessToken, refreshToken: session.refreshToken };
}
