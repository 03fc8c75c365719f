import type { Role } from './roles.js';

/** interface.md 2.10. Renaming a value is a breaking change of /v1 and of stored users. */
export const USER_STATUSES = ['INACTIVE', 'ACTIVE', 'EXPIRED', 'BLOCKED', 'DELETED'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export function isUserStatus(value: unknown): value is UserStatus {
  return typeof value === 'string' && (USER_STATUSES as readonly string[]).includes(value);
}

/** A user as stored. The password lives apart (credentials), so reading users never touches a hash. */
export interface User {
  userId: string;
  /** An e-mail address, lower-cased. */
  username: string;
  firstName: string;
  lastName: string;
  midName?: string;
  /** language_REGION, e.g. tr_TR. */
  locale: string;
  /** IANA zone, e.g. Europe/Istanbul. */
  timezone: string;
  role: Role;
  status: UserStatus;
  /** Set once the user proved they read the mailbox (invitation accepted, password reset). */
  emailVerified: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Only ACTIVE users sign in, refresh or use API keys. INACTIVE covers invited users who have not
 * accepted yet and users an administrator paused; the other states are terminal until an ADMIN acts.
 */
export function canSignIn(status: UserStatus): boolean {
  return status === 'ACTIVE';
}

export const DEFAULT_LOCALE = 'tr_TR';
export const DEFAULT_TIMEZONE = 'Europe/Istanbul';
