import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestHandler } from 'express';
import type { InternalTokens } from '@stormhook/grpc';
import type { identityV1 } from '@stormhook/proto';
import { authenticatedPrincipal } from './auth-state.js';

/**
 * The principal the gRPC calls of the running handler act for. Carried in async context rather than
 * through every handler's arguments, so each call gets the right internal token without any handler
 * having to remember it: a handler that forgets cannot act as someone else, only as the gateway.
 */
const acting = new AsyncLocalStorage<identityV1.Principal>();

/**
 * Runs an operation's handler with the request's principal (the one `authorize` set from the current
 * access snapshot, so its role is today's, never the token's claim) as the acting caller.
 */
export function actingForCaller(handler: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const principal = authenticatedPrincipal(req);
    return principal ? acting.run(principal, handler, req, res, next) : handler(req, res, next);
  };
}

/**
 * A gRPC client's `internalToken` for calls to `audience`: the acting principal's token inside a
 * handler, the gateway's own token elsewhere (login, key checks, snapshots, geo lookups of guards).
 * Both come from the signer's cache: no signing per request.
 */
export function internalTokenFor(tokens: InternalTokens, audience: string): () => string {
  return () => {
    const principal = acting.getStore();
    return principal ? tokens.forPrincipal(audience, principal) : tokens.forService(audience);
  };
}
