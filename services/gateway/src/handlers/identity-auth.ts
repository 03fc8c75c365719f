import { validatedInput } from '../http/request-state.js';
import type { Handlers } from '../routes/mount.js';
import { callIdentity, type IdentityClient } from './identity-call.js';
import { tokenJson } from './identity-json.js';

export interface IdentityHandlerDeps {
  identity: IdentityClient;
}

type Body = Record<string, unknown>;
const body = (req: Parameters<typeof validatedInput>[0]): Body => validatedInput(req).body as Body;

/** Sign-in and sessions: answers are never cached, since they carry tokens. */
export function authHandlers({ identity }: IdentityHandlerDeps): Handlers {
  return {
    login: async (req, res) => {
      const { username, password } = body(req);
      const pair = await callIdentity(res, () =>
        identity.login({ username: String(username), password: String(password), clientAddress: req.ip ?? '' }),
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
