import type { identityV1 } from '@stormhook/proto';
import type { IncumbentSubscriptionBody } from '../usecases/accounts/subscription-input.js';
import { fromIncumbentBody } from '../usecases/accounts/subscription-input.js';
import { requireActor } from './actor.js';
import { unwrap } from './errors.js';
import type { IdentityHandlerDeps, IdentityHandlers } from './handler-deps.js';
import { accountMessage, subscriptionMessage } from './mapping.js';

type AccountRpcs =
  'createAccount' | 'updateAccount' | 'getAccount' | 'requestPhoneActivation' | 'activatePhoneNumber' | 'updateSubscription' | 'getSubscription';

const PROFILE = ['mobilePhoneNumber', 'location', 'company', 'industry', 'profilePictureUrl'] as const;

/** The profile fields present in the request; absent ones stay undefined (kept on update). */
function profileOf(req: Partial<Record<(typeof PROFILE)[number], string>>): Partial<Record<(typeof PROFILE)[number], string>> {
  return Object.fromEntries(PROFILE.flatMap((field) => (req[field] !== undefined ? [[field, req[field]]] : [])));
}

/** The wire form back into the incumbent body the use case parses (so errors name the incumbent's paths). */
function incumbentBody(req: identityV1.UpdateSubscriptionRequest): IncumbentSubscriptionBody {
  const details = req.planDetails;
  return {
    accountId: req.accountId,
    ...(req.userId ? { userId: req.userId } : {}),
    subscriptionPlan: req.subscriptionPlan,
    ...(details
      ? {
          planDetails: {
            ...(details.noExpiration
              ? { subscriptionExpirationEpoch: null }
              : details.subscriptionExpirationEpochMs !== undefined
                ? { subscriptionExpirationEpoch: details.subscriptionExpirationEpochMs }
                : {}),
            ...(details.detailsPresent
              ? {
                  details: details.details.map((d) => ({
                    ...(d.limitResetRecurrence
                      ? { limitResetRecurrence: { limitType: d.limitResetRecurrence.limitType, limitResetInterval: d.limitResetRecurrence.limitResetInterval } }
                      : {}),
                    ...(d.geoBoundary ? { geoBoundary: { country: d.geoBoundary.country, region: d.geoBoundary.region || undefined } } : {}),
                    apiServiceLimits: d.apiServiceLimits.map((l) => ({
                      version: l.version || undefined,
                      serviceName: l.serviceName,
                      maxInvocation: l.maxInvocation,
                    })),
                  })),
                }
              : {}),
          },
        }
      : {}),
  };
}

/** interface.md 4.13 - 4.15, phone activation and subscriptions. */
export function accountHandlers({ uc, users }: IdentityHandlerDeps): IdentityHandlers<AccountRpcs> {
  return {
    createAccount: async (req, call) => {
      const actor = await requireActor(users, call, req.actor);
      return accountMessage(
        unwrap(await uc.accounts.createAccount(actor, { userId: req.userId, type: req.type, subscriptionPlan: req.subscriptionPlan, ...profileOf(req) })),
      );
    },
    updateAccount: async (req, call) => {
      const actor = await requireActor(users, call, req.actor);
      return accountMessage(
        unwrap(await uc.accounts.updateAccount(actor, { accountId: req.accountId, ...(req.type !== undefined ? { type: req.type } : {}), ...profileOf(req) })),
      );
    },
    getAccount: async (req, call) => accountMessage(unwrap(await uc.accounts.getAccountOfUser(await requireActor(users, call, req.actor), req.userId))),
    requestPhoneActivation: async (req, call) => {
      const actor = await requireActor(users, call, req.actor);
      const sent = unwrap(
        await uc.phoneActivation.requestActivation(actor, {
          userId: req.userId,
          accountId: req.accountId,
          phoneNumberActivationPageLink: req.phoneNumberActivationPageLink,
        }),
      );
      return {
        userId: sent.userId,
        accountId: sent.accountId,
        recipientPhoneNumber: sent.recipientPhoneNumber,
        tokenExpirationEpochMs: sent.tokenExpirationEpoch,
        smsSent: sent.smsSent,
      };
    },
    activatePhoneNumber: async (req, call) => {
      const actor = await requireActor(users, call, req.actor);
      return accountMessage(unwrap(await uc.phoneActivation.activate(actor, { accountId: req.accountId, code: req.code })));
    },
    updateSubscription: async (req, call) => {
      const actor = await requireActor(users, call, req.actor);
      const input = unwrap(fromIncumbentBody(incumbentBody(req)));
      return subscriptionMessage(unwrap(await uc.subscriptions.updateSubscription(actor, input)));
    },
    getSubscription: async (req, call) =>
      subscriptionMessage(unwrap(await uc.subscriptions.getSubscription(await requireActor(users, call, req.actor), req.accountId))),
  };
}
