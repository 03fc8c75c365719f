import type { Request } from 'express';
import type { identityV1 } from '@stormhook/proto';

/** What authentication and the access check established for one request. */
export interface AuthState {
  /** The caller, as identity's messages name it. */
  principal: identityV1.Principal;
  /** Identity's decision for the operation (account, service, geographic boundaries). */
  access?: identityV1.CheckAccessResponse;
}

const states = new WeakMap<Request, AuthState>();

export function setAuthState(req: Request, state: AuthState): void {
  states.set(req, state);
}

/** The authenticated caller; handlers of authenticated operations may rely on it. */
export function principalOf(req: Request): identityV1.Principal {
  const state = states.get(req);
  if (!state) throw new Error('principalOf() called on an operation that is not authenticated');
  return state.principal;
}

/** Identity's decision: e.g. `geographicBoundaries` for handlers that filter data by area. */
export function accessOf(req: Request): identityV1.CheckAccessResponse | undefined {
  return states.get(req)?.access;
}

/** The authenticated caller, or undefined for an operation without authentication. */
export function authenticatedPrincipal(req: Request): identityV1.Principal | undefined {
  return states.get(req)?.principal;
}
