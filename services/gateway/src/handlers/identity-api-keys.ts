import { principalOf } from '../http/auth-state.js';
import { validatedBody, validatedParams, validatedQuery } from '../http/validated-input.js';
import type { Handlers } from '../routes/mount.js';
import { ApiKeyIdParams, ApiKeysQuery, CreateApiKeyRequest } from '../schemas/api-keys.js';
import { callIdentity } from './identity-call.js';
import type { IdentityHandlerDeps } from './identity-auth.js';
import { apiKeyJson } from './identity-json.js';

/** API keys of machine clients (role API_USER): created by the user or an ADMIN, listed masked, revoked. */
export function apiKeyHandlers({ identity }: IdentityHandlerDeps): Handlers {
  return {
    createApiKey: async (req, res) => {
      const b = validatedBody(req, CreateApiKeyRequest);
      const created = await callIdentity(res, () =>
        identity.createApiKey({
          actor: principalOf(req),
          userId: b.userId ?? '',
          name: b.name ?? '',
          ...(b.expiresAt !== undefined ? { expiresAtEpochMs: b.expiresAt } : {}),
        }),
      );
      // The only answer that ever shows the key: it must not sit in a cache.
      res
        .status(201)
        .set('Cache-Control', 'no-store')
        .json({
          keyId: created.keyId,
          name: created.name,
          apiKey: created.key,
          createdAt: new Date(created.createdAtEpochMs).toISOString(),
          ...(created.expiresAtEpochMs !== undefined ? { expiresAt: new Date(created.expiresAtEpochMs).toISOString() } : {}),
        });
    },
    listApiKeys: async (req, res) => {
      const { userId } = validatedQuery(req, ApiKeysQuery);
      const list = await callIdentity(res, () => identity.listApiKeys({ actor: principalOf(req), userId: userId ?? '' }));
      res.json({ apiKeys: list.keys.map(apiKeyJson) });
    },
    revokeApiKey: async (req, res) => {
      const { keyId } = validatedParams(req, ApiKeyIdParams);
      res.json(await callIdentity(res, () => identity.revokeApiKey({ actor: principalOf(req), keyId })));
    },
  };
}
