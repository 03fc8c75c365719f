import type { Request } from 'express';
import type { identityV1 } from '@stormhook/proto';
import { principalOf } from '../http/auth-state.js';
import { validatedInput } from '../http/request-state.js';
import type { Handlers } from '../routes/mount.js';
import { callIdentity } from './identity-call.js';
import type { IdentityHandlerDeps } from './identity-auth.js';
import { accountJson, subscriptionJson } from './identity-json.js';

type Body = Record<string, unknown>;
const body = (req: Request): Body => validatedInput(req).body as Body;
const PROFILE = ['mobilePhoneNumber', 'location', 'company', 'industry', 'profilePictureUrl'] as const;

function profile(b: Body): Partial<Record<(typeof PROFILE)[number], string>> {
  return Object.fromEntries(PROFILE.flatMap((field) => (typeof b[field] === 'string' ? [[field, b[field]]] : [])));
}

const isObject = (value: unknown): value is Body => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The incumbent's `planDetails` (already validated) as identity's message. */
function planDetails(raw: unknown): identityV1.PlanDetails | null {
  if (!isObject(raw)) return null;
  const expiration = raw['subscriptionExpirationEpoch'];
  const details = Array.isArray(raw['details']) ? raw['details'].filter(isObject) : undefined;
  return {
    ...(typeof expiration === 'number' ? { subscriptionExpirationEpochMs: expiration } : {}),
    noExpiration: expiration === null,
    detailsPresent: details !== undefined,
    details: (details ?? []).map((d) => {
      const recurrence = isObject(d['limitResetRecurrence']) ? d['limitResetRecurrence'] : undefined;
      const boundary = isObject(d['geoBoundary']) ? d['geoBoundary'] : undefined;
      const limits = Array.isArray(d['apiServiceLimits']) ? d['apiServiceLimits'].filter(isObject) : [];
      return {
        limitResetRecurrence: recurrence
          ? {
              limitType: String(recurrence['limitType']),
              ...(typeof recurrence['limitResetInterval'] === 'number' ? { limitResetInterval: recurrence['limitResetInterval'] } : {}),
            }
          : null,
        geoBoundary: boundary ? { country: String(boundary['country']), region: typeof boundary['region'] === 'string' ? boundary['region'] : '' } : null,
        apiServiceLimits: limits.map((l) => ({
          version: typeof l['version'] === 'string' ? l['version'] : '',
          serviceName: String(l['serviceName']),
          maxInvocation: Number(l['maxInvocation']),
        })),
      };
    }),
  };
}

/** interface.md 4.13 - 4.15, phone activation and subscriptions. */
export function accountHandlers({ identity }: IdentityHandlerDeps): Handlers {
  return {
    createAccount: async (req, res) => {
      const b = body(req);
      const account = await callIdentity(res, () =>
        identity.createAccount({
          actor: principalOf(req),
          userId: String(b['userId']),
          type: String(b['type']),
          subscriptionPlan: String(b['subscriptionPlan']),
          ...profile(b),
        }),
      );
      res.json(accountJson(account));
    },
    updateAccount: async (req, res) => {
      const b = body(req);
      const account = await callIdentity(res, () =>
        identity.updateAccount({
          actor: principalOf(req),
          accountId: String(b['accountId']),
          ...(typeof b['type'] === 'string' ? { type: b['type'] } : {}),
          ...profile(b),
        }),
      );
      res.json(accountJson(account));
    },
    getAccount: async (req, res) => {
      const userId = String(validatedInput(req).params['userId']);
      res.json(accountJson(await callIdentity(res, () => identity.getAccount({ actor: principalOf(req), userId }))));
    },
    requestPhoneActivation: async (req, res) => {
      const b = body(req);
      const sent = await callIdentity(res, () =>
        identity.requestPhoneActivation({
          actor: principalOf(req),
          userId: String(b['userId']),
          accountId: String(b['accountId']),
          phoneNumberActivationPageLink: String(b['phoneNumberActivationPageLink']),
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
      const b = body(req);
      const account = await callIdentity(res, () => identity.activatePhoneNumber({ actor: principalOf(req), accountId: String(b['accountId']), code: String(b['code']) }));
      res.json(accountJson(account));
    },
    updateSubscription: async (req, res) => {
      const b = body(req);
      const subscription = await callIdentity(res, () =>
        identity.updateSubscription({
          actor: principalOf(req),
          accountId: String(b['accountId']),
          userId: typeof b['userId'] === 'string' ? b['userId'] : '',
          subscriptionPlan: String(b['subscriptionPlan']),
          planDetails: planDetails(b['planDetails']),
        }),
      );
      res.json(subscriptionJson(subscription));
    },
    getSubscription: async (req, res) => {
      const accountId = String(validatedInput(req).params['accountId']);
      res.json(subscriptionJson(await callIdentity(res, () => identity.getSubscription({ actor: principalOf(req), accountId }))));
    },
  };
}
