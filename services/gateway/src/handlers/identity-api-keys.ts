import { principalOf } from '../http/auth-state.js';
import { validatedInput } from '../http/request-state.js';
import type { Handlers } from '../routes/mount.js';
import { callIdentity } from './identity-call.js';
import type { IdentityHandlerDeps } from './identity-auth.js';
import { apiKeyJson } from './identity-json.js';

/** API keys of machine clients (role API_USER): created by the user or an ADMIN, listed masked, revoked. */
export function apiKeyHandlers({ identity }: IdentityHandlerDeps): Handlers {
  return {
    createApiKey: async (req, res) => {
      const b = validatedInput(req).body as Record<string, unknown>;
      const created = await callIdentity(res, () =>
        identity.createApiKey({
          actor: principalOf(req),
          userId: typeof b['userId'] === 'string' ? b['userId'] : '',
          name: typeof b['name'] === 'string' ? b['name'] : '',
          ...(typeof b['expiresAt'] === 'number' ? { expiresAtEpochMs: b['expiresAt'] } : {}),
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
      const userId = validatedInput(req).query['userId'];
      const list = await callIdentity(res, () => identity.listApiKeys({ actor: principalOf(req), userId: typeof userId === 'string' ? userId : '' }));
      res.json({ apiKeys: list.keys.map(apiKeyJson) });
    },
    revokeApiKey: async (req, res) => {
      const keyId = String(validatedInput(req).params['keyId']);
      res.json(await callIdentity(res, () => identity.revokeApiKey({ actor: principalOf(req), keyId })));
    },
  };
}
