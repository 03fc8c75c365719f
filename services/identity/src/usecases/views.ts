import type { Account, AccountType } from '../domain/account.js';
import type { Role } from '@stormhook/access';
import type { SubscriptionPlan } from '../domain/subscription.js';
import type { User, UserStatus } from '../domain/user.js';

/** interface.md 2.9 as the use cases answer it; a transport only formats the dates. */
export interface AccountView {
  id: string;
  userId: string;
  type: AccountType;
  createdAt: Date;
  updatedAt: Date;
  mobilePhoneNumber?: string;
  location?: string;
  company?: string;
  industry?: string;
  profilePictureUrl?: string;
  subscriptionPlan: SubscriptionPlan;
  emailVerified: boolean;
  mobilePhoneNumberVerified: boolean;
}

/** interface.md 2.10; `roles` is the contract's (singular-valued) field name. */
export interface UserView {
  userId: string;
  username: string;
  firstName: string;
  lastName: string;
  midName?: string;
  locale: string;
  timezone: string;
  roles: Role;
  status: UserStatus;
  account?: AccountView;
}

/** The e-mail is verified on the user (it is the username); the account shows it. Nothing internal leaks. */
export function accountView(account: Account, user: Pick<User, 'emailVerified'> | undefined): AccountView {
  const optional = (['mobilePhoneNumber', 'location', 'company', 'industry', 'profilePictureUrl'] as const).filter((field) => account[field] !== undefined);
  return {
    id: account.id,
    userId: account.userId,
    type: account.type,
    createdAt: account.createdAt,
    updatedAt: account.updatedAt,
    ...Object.fromEntries(optional.map((field) => [field, account[field]])),
    subscriptionPlan: account.subscriptionPlan,
    emailVerified: user?.emailVerified ?? false,
    mobilePhoneNumberVerified: account.mobilePhoneNumberVerified,
  };
}

export function userView(user: User, account?: Account): UserView {
  return {
    userId: user.userId,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    ...(user.midName !== undefined ? { midName: user.midName } : {}),
    locale: user.locale,
    timezone: user.timezone,
    roles: user.role,
    status: user.status,
    ...(account ? { account: accountView(account, user) } : {}),
  };
}
