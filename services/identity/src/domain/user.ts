import type { Role, UserStatus } from '@stormhook/access';

export { USER_STATUSES, isUserStatus, canSignIn, type UserStatus } from '@stormhook/access';

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
  /** Access tokens issued before this whole second are refused: set by logout, password reset and blocking. */
  accessTokensValidFrom?: Date;
  createdAt: Date;
  updatedAt: Date;
}

export const DEFAULT_LOCALE = 'tr_TR';
export const DEFAULT_TIMEZONE = 'Europe/Istanbul';
