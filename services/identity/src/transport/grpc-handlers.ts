import type { HandlersOf } from '@stormhook/grpc';
import type { identityV1 } from '@stormhook/proto';
import { accessHandlers } from './access-handlers.js';
import { accountHandlers } from './account-handlers.js';
import { authHandlers } from './auth-handlers.js';
import type { IdentityHandlerDeps } from './handler-deps.js';
import { userHandlers } from './user-handlers.js';

/** Every rpc of IdentityService: each translates, calls one use case, and maps its failure to a status. */
export function identityHandlers(deps: IdentityHandlerDeps): HandlersOf<typeof identityV1.IdentityService> {
  return { ...authHandlers(deps), ...accessHandlers(deps), ...userHandlers(deps), ...accountHandlers(deps) };
}
