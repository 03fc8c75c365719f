import { validatedInput } from '../http/request-state.js';
import type { Handlers } from '../routes/mount.js';
import { callIdentity, clientAddress, type IdentityClient } from './identity-call.js';
import { tokenJson } from './identity-json.js';

export interface IdentityHandlerDeps {
  identity: IdentityClient;
  /** Proxies in front of the gateway whose X-Forwarded-For entries are trusted (0: none). */
  trustedProxyHops: number;
}

type Body = Record<string, unknown>;
const body = (req: Parameters<typeof validatedInput>[0]): Body => validatedInput(req).body as Body;

/** Sign-in and sessions: answers are never cached, since they carry tokens. */
export function authHandlers({ identity, trustedProxyHops }: IdentityHandlerDeps): Handlers {
  return {
    login: async (req, res) => {
      const { username, password } = body(req);
      const pair = await callIdentity(res, () =>
        identity.login({ username: String(username), password: String(password), clientAddress: clientAddress(req, trustedProxyHops) }),
      );
      res.set('Cache-Control', 'no-store').json(tokenJson(pair));
    },
    refreshToken: async (req, res) => {
      const pair = await callIdentity(res, () => identity.refreshToken({ refreshToken: String(body(req)['refreshToken']) }));
      res.set('Cache-Control', 'no-store').json(tokenJson(pair));
    },
    logout: async (req, res) => {
      await callIdentity(res, () => identity.logout({ refreshToken: String(body(req)['refreshToken']) }));
      res.status(204).end();
    },
  };
}
