import type { AccountType } from '@stormhook/access';
import type { Subscription, SubscriptionPlan } from './subscription.js';

export { ACCOUNT_TYPES, type AccountType } from '@stormhook/access';

/** The profile fields a user may write (4.13, 4.14); plan and verification flags are not among them. */
export interface AccountProfile {
  type: AccountType;
  /** E.164, e.g. +905321234567. */
  mobilePhoneNumber?: string;
  location?: string;
  company?: string;
  industry?: string;
  profilePictureUrl?: string;
}

/** A pending SMS verification; kept inside the account so starting and finishing it are single-document writes. */
export interface PhoneActivation {
  /** The number the code went to: a later change of the number invalidates the code. */
  phoneNumber: string;
  /** HMAC-SHA256 of the code with `salt`; a 6-digit code in clear would be readable by anyone with the dump. */
  codeHash: string;
  salt: string;
  expiresAt: Date;
}

/** One per user. */
export interface Account extends AccountProfile {
  id: string;
  userId: string;
  /** Mirror of `subscription.plan`, the field the contract shows. */
  subscriptionPlan: SubscriptionPlan;
  subscription: Subscription;
  mobilePhoneNumberVerified: boolean;
  phoneActivation?: PhoneActivation;
  createdAt: Date;
  updatedAt: Date;
}
