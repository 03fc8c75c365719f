import { COUNTRY_CODES, LIMIT_RECURRENCES } from '@stormhook/access';
import { AccountType, SubscriptionPlan, dateTime, epochMillis, url, uuid, MAX_EPOCH_MS } from './common.js';
import { arrayOf, closedObject, enumOf, named, openObject, pathParams } from './json-schema.js';

const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;
const phoneNumber = {
  type: 'string',
  pattern: '^\\+?[0-9][0-9 ()-]{5,19}$',
  description: 'international form preferred, e.g. +905321234567',
} as const;

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
export const AccountUpdateRequest = named('AccountUpdateRequest', closedObject({ accountId: uuid, ...profileFields }, ['accountId']));

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
  closedObject({ userId: uuid, accountId: uuid, phoneNumberActivationPageLink: { ...url, description: 'address of the activation page' } }, [
    'userId',
    'accountId',
    'phoneNumberActivationPageLink',
  ]),
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

/** Completes a phone activation with the code of the SMS (attempts are limited). */
export const PhoneActivationCodeRequest = named(
  'PhoneActivationCodeRequest',
  closedObject({ accountId: uuid, code: { type: 'string', pattern: '^[0-9]{6}$', description: 'the 6-digit code of the SMS' } }, ['accountId', 'code']),
);

export const AccountIdParams = pathParams({ accountId: uuid });

const GeoBoundary = named(
  'GeoBoundary',
  closedObject(
    {
      country: enumOf(COUNTRY_CODES, { description: 'ISO 3166 alpha-3' }),
      region: { type: 'string', maxLength: 128, description: 'a province name; absent: the whole country' },
    },
    ['country'],
  ),
);

/** The incumbent's update-subscription body (ADMIN only); parts left out take the plan's defaults. */
export const UpdateSubscriptionRequest = named(
  'UpdateSubscriptionRequest',
  closedObject(
    {
      accountId: uuid,
      userId: { ...uuid, description: "the account's owner, checked when given" },
      subscriptionPlan: SubscriptionPlan,
      planDetails: closedObject({
        subscriptionExpirationEpoch: {
          type: ['integer', 'null'],
          minimum: 0,
          maximum: MAX_EPOCH_MS,
          description: 'epoch milliseconds; null: never expires; absent: the plan duration from now',
        },
        details: arrayOf(
          closedObject({
            limitResetRecurrence: closedObject(
              { limitType: enumOf(LIMIT_RECURRENCES), limitResetInterval: { type: 'integer', minimum: 1, maximum: 366, description: 'periods per reset' } },
              ['limitType'],
            ),
            geoBoundary: GeoBoundary,
            apiServiceLimits: arrayOf(
              closedObject(
                {
                  version: { type: 'string', enum: ['v1'] },
                  serviceName: { type: 'string', minLength: 1, maxLength: 64, examples: ['precipitations', 'FORECAST'] },
                  maxInvocation: { type: 'integer', minimum: 0, maximum: 1_000_000_000, description: 'calls per period' },
                },
                ['serviceName', 'maxInvocation'],
              ),
              { maxItems: 32 },
            ),
          }),
          { maxItems: 100 },
        ),
      }),
    },
    ['accountId', 'subscriptionPlan'],
  ),
);

/** A subscription: the incumbent's update answer plus what it now grants. */
export const Subscription = named(
  'Subscription',
  openObject(
    {
      userId: uuid,
      accountId: uuid,
      subscriptionPlan: SubscriptionPlan,
      subscriptionExpirationEpoch: { type: ['integer', 'null'], description: 'epoch milliseconds; null: never expires' },
      active: { type: 'boolean', description: 'whether it grants access now' },
      geographicBoundaries: arrayOf(GeoBoundary),
      serviceLimits: arrayOf(
        openObject({
          serviceName: { type: 'string' },
          maxInvocation: { type: 'integer' },
          limitType: enumOf(LIMIT_RECURRENCES),
          limitResetInterval: { type: 'integer' },
        }),
      ),
      warnings: arrayOf({ type: 'string' }),
    },
    ['userId', 'accountId', 'subscriptionPlan', 'active', 'warnings'],
  ),
);
