import type { AccessSnapshot } from '@stormhook/access';

/**
 * Identity's current state of an account's owner: user status and role, account and subscription.
 * Undefined when identity knows no such account (deleted); an unreachable identity throws
 * DependencyUnavailableError.
 */
export interface EntitlementSource {
  ownerOf(accountId: string): Promise<AccessSnapshot | undefined>;
}
