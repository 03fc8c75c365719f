import { decisionResponse, SESSION_ENDED, snapshotMessage } from '@stormhook/access';
import { uuid } from '../domain/fields.js';
import { currentPrincipal } from './actor.js';
import { unwrap } from './errors.js';
import type { IdentityHandlerDeps, IdentityHandlers } from './handler-deps.js';

/** Access decisions: per request (CheckAccess) or as a snapshot the gateway decides from in memory. */
export function accessHandlers({ uc, users }: IdentityHandlerDeps): IdentityHandlers<'checkAccess' | 'getAccessSnapshot'> {
  return {
    // Denials are answers, not errors.
    checkAccess: async (req) => {
      const principal = await currentPrincipal(users, req.principal);
      if (req.principal?.userId && !principal) {
        return decisionResponse({ decision: 'deny', status: 401, reason: 'unauthenticated', message: SESSION_ENDED });
      }
      const location = req.location ? { lat: req.location.lat, lng: req.location.lng } : undefined;
      return decisionResponse(await uc.checkAccess.checkAccess(principal, req.operationId, location));
    },
    getAccessSnapshot: async (req) => {
      const userId = unwrap(uuid('userId', req.userId));
      return snapshotMessage(await uc.accessSnapshots.snapshotOf(userId));
    },
  };
}
