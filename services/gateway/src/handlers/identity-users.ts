import type { Request } from 'express';
import { principalOf } from '../http/auth-state.js';
import { validatedInput } from '../http/request-state.js';
import type { Handlers } from '../routes/mount.js';
import { callIdentity } from './identity-call.js';
import type { IdentityHandlerDeps } from './identity-auth.js';
import { userJson } from './identity-json.js';

type Body = Record<string, unknown>;
const body = (req: Request): Body => validatedInput(req).body as Body;
const optionalString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The bracket notation of 4.16 as identity parses it; a JSON array is written into it. */
function bracketFilter(value: unknown): string {
  if (Array.isArray(value)) return `[${value.join(', ')}]`;
  return typeof value === 'string' ? value : '';
}

/** interface.md 4.16 - 4.19 and user administration. */
export function userHandlers({ identity }: IdentityHandlerDeps): Handlers {
  return {
    getCurrentUser: async (req, res) => {
      res.json(userJson(await callIdentity(res, () => identity.getCurrentUser({ actor: principalOf(req) }))));
    },
    getUser: async (req, res) => {
      const userId = String(validatedInput(req).params['userId']);
      res.json(userJson(await callIdentity(res, () => identity.getUser({ actor: principalOf(req), userId }))));
    },
    getUserPage: async (req, res) => {
      const b = body(req);
      const sortBy = typeof b['sortBy'] === 'object' && b['sortBy'] !== null ? Object.entries(b['sortBy'] as Record<string, unknown>) : [];
      const page = await callIdentity(res, () =>
        identity.listUsers({
          actor: principalOf(req),
          roles: bracketFilter(b['roles']),
          status: bracketFilter(b['status']),
          sortBy: sortBy.map(([field, direction]) => ({ field, direction: String(direction) })),
          ...(typeof b['pageNumber'] === 'number' ? { pageNumber: b['pageNumber'] } : {}),
          ...(typeof b['pageSize'] === 'number' ? { pageSize: b['pageSize'] } : {}),
          includeAccount: b['includeAccount'] === true,
        }),
      );
      res.json({
        users: page.users.map(userJson),
        totalRecords: page.page?.totalRecords ?? 0,
        pageNumber: page.page?.pageNumber ?? 0,
        pageSize: page.page?.pageSize ?? 0,
      });
    },
    createUser: async (req, res) => {
      const b = body(req);
      const created = await callIdentity(res, () =>
        identity.createUser({
          actor: principalOf(req),
          username: String(b['username']),
          firstName: String(b['firstName']),
          lastName: String(b['lastName']),
          ...(optionalString(b['midName']) !== undefined ? { midName: String(b['midName']) } : {}),
          ...(optionalString(b['locale']) !== undefined ? { locale: String(b['locale']) } : {}),
          ...(optionalString(b['timezone']) !== undefined ? { timezone: String(b['timezone']) } : {}),
          // The schema admits exactly one of the two names.
          role: String(b['roles'] ?? b['role']),
          ...(optionalString(b['password']) !== undefined ? { password: String(b['password']) } : {}),
          invite: b['invite'] === true,
          ...(optionalString(b['invitationPageLink']) !== undefined ? { invitationPageLink: String(b['invitationPageLink']) } : {}),
        }),
      );
      res.status(201).json({
        ...(created.user ? userJson(created.user) : {}),
        ...(created.invitationExpiresAtEpochMs !== undefined
          ? { invitation: { sent: created.invitationSent, expiresAt: new Date(created.invitationExpiresAtEpochMs).toISOString() } }
          : {}),
      });
    },
    changeUserRoleAndStatus: async (req, res) => {
      const b = body(req);
      const user = await callIdentity(res, () =>
        identity.changeUserRoleAndStatus({
          actor: principalOf(req),
          userId: String(b['userId']),
          ...(optionalString(b['role']) !== undefined ? { role: String(b['role']) } : {}),
          ...(optionalString(b['status']) !== undefined ? { status: String(b['status']) } : {}),
        }),
      );
      res.json(userJson(user));
    },
    requestPasswordReset: async (req, res) => {
      const b = body(req);
      await callIdentity(res, () => identity.requestPasswordReset({ username: String(b['username']), resetPageLink: String(b['resetPageLink']) }));
      // The same answer whether or not the user exists: nobody learns which usernames are taken.
      res.status(202).json({ message: 'If the user exists, a password reset e-mail is on its way' });
    },
    resetPassword: async (req, res) => {
      const b = body(req);
      const done = await callIdentity(res, () =>
        identity.resetPassword({
          userId: String(b['userId']),
          token: String(b['token']),
          newPassword: String(b['newPassword']),
          ...(optionalString(b['loginPageLink']) !== undefined ? { loginPageLink: String(b['loginPageLink']) } : {}),
        }),
      );
      res.set('Cache-Control', 'no-store').json({ userId: done.userId, message: done.message, ...(done.redirectTo !== undefined ? { redirectTo: done.redirectTo } : {}) });
    },
  };
}
