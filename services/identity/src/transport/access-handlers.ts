import type { identityV1 } from '@stormhook/proto';
import type { AccessDecision } from '../usecases/check-access.js';
import { currentPrincipal } from './actor.js';
import type { IdentityHandlerDeps, IdentityHandlers } from './handler-deps.js';
import { boundaryMessages } from './mapping.js';

/** Reasons of denials. WARNING: the gateway and clients may match on them. */
const DENIAL_REASONS: Readonly<Record<Extract<AccessDecision, { decision: 'deny' }>['reason'], string>> = {
  unauthenticated: 'UNAUTHENTICATED',
  role: 'ROLE_REQUIRED',
  'unknown-operation': 'UNKNOWN_OPERATION',
  'subscription-required': 'SUBSCRIPTION_REQUIRED',
  'no-subscription-for-endpoint': 'NO_SUBSCRIPTION_FOR_ENDPOINT',
  'outside-geography': 'OUTSIDE_GEOGRAPHIC_BOUNDARIES',
};

function decisionMessage(d: AccessDecision): identityV1.CheckAccessResponse {
  if (d.decision === 'deny') {
    return { allowed: false, httpStatus: d.status, reason: DENIAL_REASONS[d.reason], message: d.message, service: '', metered: false, quota: null, accountId: '', geographicBoundaries: [] };
  }
  const metered = d.quota && d.limit !== undefined && d.window !== undefined;
  return {
    allowed: true,
    httpStatus: 0,
    reason: '',
    message: '',
    service: d.service ?? '',
    metered,
    quota:
      metered && d.limit && d.window
        ? {
            limit: d.limit.limit,
            recurrence: d.limit.recurrence,
            interval: d.limit.interval,
            windowStartEpochMs: d.window.start.getTime(),
            windowEndEpochMs: d.window.end.getTime(),
          }
        : null,
    accountId: d.accountId ?? '',
    geographicBoundaries: boundaryMessages(d.geographicBoundaries ?? []),
  };
}

/** The gateway's question before every operation. Denials are answers, not errors. */
export function accessHandlers({ uc, users }: IdentityHandlerDeps): IdentityHandlers<'checkAccess'> {
  return {
    checkAccess: async (req) => {
      const principal = await currentPrincipal(users, req.principal);
      if (req.principal?.userId && !principal) {
        return decisionMessage({ decision: 'deny', status: 401, reason: 'unauthenticated', message: 'The session has ended; sign in again' });
      }
      const location = req.location ? { lat: req.location.lat, lng: req.location.lng } : undefined;
      return decisionMessage(await uc.checkAccess.checkAccess(principal, req.operationId, location));
    },
  };
}
