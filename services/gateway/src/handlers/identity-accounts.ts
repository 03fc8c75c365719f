import type { identityV1 } from '@stormhook/proto';
import { principalOf } from '../http/auth-state.js';
import { validatedBody, validatedParams } from '../http/validated-input.js';
import type { Handlers } from '../routes/mount.js';
import {
  AccountCreateRequest,
  AccountIdParams,
  AccountUpdateRequest,
  PhoneActivationCodeRequest,
  PhoneActivationRequest,
  UpdateSubscriptionRequest,
} from '../schemas/accounts.js';
import type { Validated } from '../schemas/json-schema.js';
import { UserIdParams } from '../schemas/users.js';
import { callIdentity } from './identity-call.js';
import type { IdentityHandlerDeps } from './identity-auth.js';
import { accountJson, subscriptionJson } from './identity-json.js';

const PROFILE = ['mobilePhoneNumber', 'location', 'company', 'industry', 'profilePictureUrl'] as const;
type ProfileField = (typeof PROFILE)[number];

function profile(b: Partial<Record<ProfileField, string>>): Partial<Record<ProfileField, string>> {
  return Object.fromEntries(PROFILE.flatMap((field) => (b[field] !== undefined ? [[field, b[field]]] : [])));
}

type PlanDetailsJson = NonNullable<Validated<typeof UpdateSubscriptionRequest>['planDetails']>;

/** The incumbent's `planDetails` as identity's message. */
function planDetails(raw: PlanDetailsJson | undefined): identityV1.PlanDetails | null {
  if (raw === undefined) return null;
  const expiration = raw.subscriptionExpirationEpoch;
  const details = raw.details;
  return {
    ...(typeof expiration === 'number' ? { subscriptionExpirationEpochMs: expiration } : {}),
    noExpiration: expiration === null,
    detailsPresent: details !== undefined,
    details: (details ?? []).map((d) => {
      const recurrence = d.limitResetRecurrence;
      const boundary = d.geoBoundary;
      return {
        limitResetRecurrence: recurrence
          ? {
              limitType: recurrence.limitType,
              ...(recurrence.limitResetInterval !== undefined ? { limitResetInterval: recurrence.limitResetInterval } : {}),
            }
          : null,
        geoBoundary: boundary ? { country: boundary.country, region: boundary.region ?? '' } : null,
        apiServiceLimits: (d.apiServiceLimits ?? []).map((l) => ({
          version: l.version ?? '',
          serviceName: l.serviceName,
          maxInvocation: l.maxInvocation,
        })),
      };
    }),
  };
}

/** interface.md 4.13 - 4.15, phone activation and subscriptions. */
export function accountHandlers({ identity }: IdentityHandlerDeps): Handlers {
  return {
    createAccount: async (req, res) => {
      const b = validatedBody(req, AccountCreateRequest);
      const account = await callIdentity(res, () =>
        identity.createAccount({
          actor: principalOf(req),
          userId: b.userId,
          type: b.type,
          subscriptionPlan: b.subscriptionPlan,
          ...profile(b),
        }),
      );
      res.json(accountJson(account));
    },
    updateAccount: async (req, res) => {
      const b = validatedBody(req, AccountUpdateRequest);
      const account = await callIdentity(res, () =>
        identity.updateAccount({
          actor: principalOf(req),
          accountId: b.accountId,
          ...(b.type !== undefined ? { type: b.type } : {}),
          ...profile(b),
        }),
      );
      res.json(accountJson(account));
    },
    getAccount: async (req, res) => {
      const { userId } = validatedParams(req, UserIdParams);
      res.json(accountJson(await callIdentity(res, () => identity.getAccount({ actor: principalOf(req), userId }))));
    },
    requestPhoneActivation: async (req, res) => {
      const b = validatedBody(req, PhoneActivationRequest);
      const sent = await callIdentity(res, () =>
        identity.requestPhoneActivation({
          actor: principalOf(req),
          userId: b.userId,
          accountId: b.accountId,
          phoneNumberActivationPageLink: b.phoneNumberActivationPageLink,
        }),
      );
      res.json({
        userId: sent.userId,
        accountId: sent.accountId,
        recipientPhoneNumber: sent.recipientPhoneNumber,
        tokenExpirationEpoch: sent.tokenExpirationEpochMs,
        smsSent: sent.smsSent,
      });
    },
    activatePhoneNumber: async (req, res) => {
      const b = validatedBody(req, PhoneActivationCodeRequest);
      const account = await callIdentity(res, () => identity.activatePhoneNumber({ actor: principalOf(req), accountId: b.accountId, code: b.code }));
      res.json(accountJson(account));
    },
    updateSubscription: async (req, res) => {
      const b = validatedBody(req, UpdateSubscriptionRequest);
      const subscription = await callIdentity(res, () =>
        identity.updateSubscription({
          actor: principalOf(req),
          accountId: b.accountId,
          userId: b.userId ?? '',
          subscriptionPlan: b.subscriptionPlan,
          planDetails: planDetails(b.planDetails),
        }),
      );
      res.json(subscriptionJson(subscription));
    },
    getSubscription: async (req, res) => {
      const { accountId } = validatedParams(req, AccountIdParams);
      res.json(subscriptionJson(await callIdentity(res, () => identity.getSubscription({ actor: principalOf(req), accountId }))));
    },
  };
}
