import type { AccessSnapshot } from '@stormhook/access';
import type { EntitlementSource } from '../ports/entitlement-source.js';

/** The owner of `accountId` as the harness's principal() names them, entitled to every alarm kind in all of Türkiye. */
export function entitledOwner(accountId: string): AccessSnapshot {
  const userId = `${accountId.slice(0, 8)}-user`;
  const limit = { limit: 1_000, recurrence: 'MONTHLY', interval: 1 } as const;
  return {
    userId,
    username: `${userId}@example.com`,
    role: 'API_USER',
    status: 'ACTIVE',
    account: {
      id: accountId,
      userId,
      subscription: {
        plan: 'PREMIUM_MONTHLY',
        geographicBoundaries: [{ country: 'TUR' }],
        limits: { ALARM_GEOMETRY: limit, ALARM_POINT: limit, ALARM_FORECAST: limit },
      },
    },
  };
}

/**
 * Identity's answers about registration owners, set by the test: every account is entitled until
 * the test says otherwise (null: identity knows no such account). The change itself still reaches
 * the matcher as a real identity.user-changed.v1 record.
 */
export class FakeIdentity implements EntitlementSource {
  private readonly owners = new Map<string, AccessSnapshot | null>();
  reads = 0;

  set(accountId: string, owner: AccessSnapshot | null): void {
    this.owners.set(accountId, owner);
  }

  async ownerOf(accountId: string): Promise<AccessSnapshot | undefined> {
    this.reads += 1;
    const owner = this.owners.get(accountId);
    return owner === null ? undefined : (owner ?? entitledOwner(accountId));
  }
}
