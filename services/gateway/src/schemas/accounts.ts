import { AccountType, SubscriptionPlan, dateTime, epochMillis, url, uuid } from './common.js';
import { closedObject, named, openObject, type JsonSchema } from './json-schema.js';

const text = (maxLength: number): JsonSchema => ({ type: 'string', maxLength });
const phoneNumber: JsonSchema = {
  type: 'string',
  pattern: '^\\+?[0-9][0-9 ()-]{5,19}$',
  description: 'international form preferred, e.g. +905321234567',
};

const profileFields = {
  type: AccountType,
  mobilePhoneNumber: phoneNumber,
  location: text(512),
  company: text(256),
  industry: text(128),
  profilePictureUrl: url,
};

/** interface.md 4.13; required fields as in the incumbent (userId, type, subscriptionPlan). */
export const AccountCreateRequest = named(
  'AccountCreateRequest',
  closedObject({ userId: uuid, ...profileFields, subscriptionPlan: SubscriptionPlan }, ['userId', 'type', 'subscriptionPlan']),
);

/** interface.md 4.14: the plan is not part of it (users never write their own plan). */
export const AccountUpdateRequest = named(
  'AccountUpdateRequest',
  closedObject({ accountId: uuid, ...profileFields }, ['accountId']),
);

/** interface.md 2.9. */
export const Account = named(
  'Account',
  openObject(
    {
      id: uuid,
      userId: uuid,
      type: AccountType,
      createdAt: dateTime,
      updatedAt: dateTime,
      mobilePhoneNumber: { type: 'string' },
      location: { type: 'string' },
      company: { type: 'string' },
      industry: { type: 'string' },
      profilePictureUrl: { type: 'string' },
      subscriptionPlan: SubscriptionPlan,
      emailVerified: { type: 'boolean' },
      mobilePhoneNumberVerified: { type: 'boolean' },
    },
    ['id', 'userId', 'type', 'subscriptionPlan'],
  ),
);

/** interface.md 4.15. */
export const PhoneActivationRequest = named(
  'PhoneActivationRequest',
  closedObject(
    { userId: uuid, accountId: uuid, phoneNumberActivationPageLink: { ...url, description: 'address of the activation page' } },
    ['userId', 'accountId', 'phoneNumberActivationPageLink'],
  ),
);

export const PhoneActivationResponse = named(
  'PhoneActivationResponse',
  openObject(
    {
      userId: uuid,
      accountId: uuid,
      recipientPhoneNumber: { type: 'string' },
      tokenExpirationEpoch: epochMillis,
      smsSent: { type: 'boolean' },
    },
    ['userId', 'accountId', 'smsSent'],
  ),
);
