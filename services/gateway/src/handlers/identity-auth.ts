import { validatedBody } from '../http/validated-input.js';
import type { Handlers } from '../routes/mount.js';
import { LoginRequest, LogoutRequest, RefreshRequest } from '../schemas/auth.js';
import { callIdentity, type IdentityClient } from './identity-call.js';
import { tokenJson } from './identity-json.js';

export interface IdentityHandlerDeps {
  identity: IdentityClient;
}

/** Sign-in and sessions: answers are never cached, since they carry tokens. */
export function authHandlers({ identity }: IdentityHandlerDeps): Handlers {
  return {
    login: async (req, res) => {
      const { username, password } = validatedBody(req, LoginRequest);
      const pair = await callIdentity(res, () => identity.login({ username, password, clientAddress: req.ip ?? '' }));
      res.set('Cache-Control', 'no-store').json(tokenJson(pair));
    },
    refreshToken: async (req, res) => {
      const pair = await callIdentity(res, () => identity.refreshToken({ refreshToken: validatedBody(req, RefreshRequest).refreshToken }));
      res.set('Cache-Control', 'no-store').json(tokenJson(pair));
    },
    logout: async (req, res) => {
      await callIdentity(res, () => identity.logout({ refreshToken: validatedBody(req, LogoutRequest).refreshToken }));
      res.status(204).end();
    },
  };
}
