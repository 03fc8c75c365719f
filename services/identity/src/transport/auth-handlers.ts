import { requireActor } from './actor.js';
import { unwrap } from './errors.js';
import type { IdentityHandlerDeps, IdentityHandlers } from './handler-deps.js';
import { apiKeyInfoMessage, createdApiKeyMessage, principalMessage } from './mapping.js';

type AuthRpcs = 'login' | 'refreshToken' | 'logout' | 'getTokenKeys' | 'verifyApiKey' | 'createApiKey' | 'listApiKeys' | 'revokeApiKey';

/** Sign-in, sessions, token keys and API keys. No request field is ever logged: they carry secrets. */
export function authHandlers({ uc, users, tokenKeys }: IdentityHandlerDeps): IdentityHandlers<AuthRpcs> {
  return {
    login: async (req) => {
      const pair = unwrap(
        await uc.login.login({ username: req.username, password: req.password, ...(req.clientAddress ? { address: req.clientAddress } : {}) }),
      );
      return { ...pair, expiresInS: pair.expiresIn };
    },
    refreshToken: async (req) => {
      const pair = unwrap(await uc.sessions.refresh(req.refreshToken));
      return { ...pair, expiresInS: pair.expiresIn };
    },
    logout: async (req) => unwrap(await uc.sessions.logout(req.refreshToken)),
    getTokenKeys: async () => tokenKeys,
    verifyApiKey: async (req) => {
      const verified = unwrap(await uc.apiKeys.verifyKey(req.apiKey));
      return {
        principal: principalMessage(verified.principal),
        keyId: verified.keyId,
        ...(verified.expiresAt ? { expiresAtEpochMs: verified.expiresAt.getTime() } : {}),
      };
    },
    createApiKey: async (req, call) => {
      const actor = await requireActor(users, call, req.actor);
      const created = unwrap(
        await uc.apiKeys.create(actor, {
          ...(req.userId ? { userId: req.userId } : {}),
          name: req.name || undefined,
          ...(req.expiresAtEpochMs !== undefined ? { expiresAt: req.expiresAtEpochMs } : {}),
        }),
      );
      return createdApiKeyMessage(created);
    },
    listApiKeys: async (req, call) => {
      const actor = await requireActor(users, call, req.actor);
      return { keys: unwrap(await uc.apiKeys.list(actor, req.userId || undefined)).map(apiKeyInfoMessage) };
    },
    revokeApiKey: async (req, call) => {
      const actor = await requireActor(users, call, req.actor);
      return unwrap(await uc.apiKeys.revoke(actor, { keyId: req.keyId }));
    },
  };
}
