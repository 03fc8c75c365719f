import { enumNames, identityV1 } from '@stormhook/proto';

/** interface.md 2.10, from identity's vocabulary.proto. Renaming a value is a breaking change of /v1 and of stored users. */
export const USER_STATUSES = enumNames(identityV1.UserStatus, 'USER_STATUS_');
export type UserStatus = (typeof USER_STATUSES)[number];

export function isUserStatus(value: unknown): value is UserStatus {
  return typeof value === 'string' && (USER_STATUSES as readonly string[]).includes(value);
}

/**
 * Only ACTIVE users sign in, refresh or use API keys. INACTIVE covers invited users who have not
 * accepted yet and users an administrator paused; the other states are terminal until an ADMIN acts.
 */
export function canSignIn(status: UserStatus): boolean {
  return status === 'ACTIVE';
}
