import type { Handlers } from '../routes/mount.js';
import { accountHandlers } from './identity-accounts.js';
import { apiKeyHandlers } from './identity-api-keys.js';
import { authHandlers, type IdentityHandlerDeps } from './identity-auth.js';
import { userHandlers } from './identity-users.js';

export type { IdentityHandlerDeps } from './identity-auth.js';

/** Every operation identity answers: authentication, users, accounts, subscriptions and API keys. */
export function identityHandlers(deps: IdentityHandlerDeps): Handlers {
  return { ...authHandlers(deps), ...userHandlers(deps), ...accountHandlers(deps), ...apiKeyHandlers(deps) };
}
