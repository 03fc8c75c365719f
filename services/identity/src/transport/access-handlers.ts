import { decisionResponse, SESSION_ENDED, snapshotMessage } from '@stormhook/access';
import { uuid } from '../domain/fields.js';
import { actingPrincipal } from '@stormhook/grpc';
import { principalOf } from './actor.js';
import { unwrap } from './errors.js';
import type { IdentityHandlerDeps, IdentityHandlers } from './handler-deps.js';

/** Access decisions: per request (CheckAccess) or as a snapshot the gateway decides from in memory. */
export function accessHandlers({ uc, users }: IdentityHandlerDeps): IdentityHandlers<'checkAccess' | 'getAccessSnapshot'> {
  return {
    // Denials are answers, not errors.
    checkAccess: async (req, call) => {
      // A question about a principal: the gateway may ask it with its own service token (before it
      // acts for anyone); a call that carries a principal may only ask about that one.
      const asked = actingPrincipal(call, req.principal) ?? (call.caller?.service === 'gateway' && req.principal?.userId ? req.principal : undefined);
      const principal = asked ? await principalOf(users, asked) : undefined;
      if (asked && !principal) {
        return decisionResponse({ decision: 'deny', status: 401, reason: 'unauthenticated', message: SESSION_ENDED });
      }
      const location = req.location ? { lat: req.location.lat, lng: req.location.lng } : undefined;
      return decisionResponse(await uc.checkAccess.checkAccess(principal, req.operationId, location));
    },
    getAccessSnapshot: async (req) => {
      if (req.accountId && !req.userId) {
        const accountId = unwrap(uuid('accountId', req.accountId));
        return snapshotMessage(await uc.accessSnapshots.snapshotOfAccount(accountId));
      }
      const userId = unwrap(uuid('userId', req.userId));
      return snapshotMessage(await uc.accessSnapshots.snapshotOf(userId));
    },
  };
}
