import { principalOf } from '../http/auth-state.js';
import { validatedBody, validatedParams } from '../http/validated-input.js';
import type { Handlers } from '../routes/mount.js';
import type { Validated } from '../schemas/json-schema.js';
import {
  ChangeRoleAndStatusRequest,
  CreateUserRequest,
  PasswordResetRequest,
  PasswordResetRequestRequest,
  UserIdParams,
  UserPageRequest,
} from '../schemas/users.js';
import { callIdentity } from './identity-call.js';
import type { IdentityHandlerDeps } from './identity-auth.js';
import { userJson } from './identity-json.js';

/** The bracket notation of 4.16 as identity parses it; a JSON array is written into it. */
function bracketFilter(value: string | readonly string[] | undefined): string {
  if (Array.isArray(value)) return `[${value.join(', ')}]`;
  return typeof value === 'string' ? value : '';
}

/** The schema admits exactly one of `roles` (the name of the User resource) and its older alias `role`. */
function roleOf(b: Validated<typeof CreateUserRequest>): string {
  const role = b.roles ?? b.role;
  if (role === undefined) throw new Error('CreateUserRequest admitted a body without roles or role');
  return role;
}

/** interface.md 4.16 - 4.19 and user administration. */
export function userHandlers({ identity }: IdentityHandlerDeps): Handlers {
  return {
    getCurrentUser: async (req, res) => {
      res.json(userJson(await callIdentity(res, () => identity.getCurrentUser({ actor: principalOf(req) }))));
    },
    getUser: async (req, res) => {
      const { userId } = validatedParams(req, UserIdParams);
      res.json(userJson(await callIdentity(res, () => identity.getUser({ actor: principalOf(req), userId }))));
    },
    getUserPage: async (req, res) => {
      const b = validatedBody(req, UserPageRequest);
      const page = await callIdentity(res, () =>
        identity.listUsers({
          actor: principalOf(req),
          roles: bracketFilter(b.roles),
          status: bracketFilter(b.status),
          sortBy: Object.entries(b.sortBy ?? {}).map(([field, direction]) => ({ field, direction })),
          ...(b.pageNumber !== undefined ? { pageNumber: b.pageNumber } : {}),
          ...(b.pageSize !== undefined ? { pageSize: b.pageSize } : {}),
          includeAccount: b.includeAccount === true,
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
      const b = validatedBody(req, CreateUserRequest);
      const created = await callIdentity(res, () =>
        identity.createUser({
          actor: principalOf(req),
          username: b.username,
          firstName: b.firstName,
          lastName: b.lastName,
          ...(b.midName !== undefined ? { midName: b.midName } : {}),
          ...(b.locale !== undefined ? { locale: b.locale } : {}),
          ...(b.timezone !== undefined ? { timezone: b.timezone } : {}),
          role: roleOf(b),
          ...(b.password !== undefined ? { password: b.password } : {}),
          invite: b.invite === true,
          ...(b.invitationPageLink !== undefined ? { invitationPageLink: b.invitationPageLink } : {}),
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
      const b = validatedBody(req, ChangeRoleAndStatusRequest);
      const user = await callIdentity(res, () =>
        identity.changeUserRoleAndStatus({
          actor: principalOf(req),
          userId: b.userId,
          ...(b.role !== undefined ? { role: b.role } : {}),
          ...(b.status !== undefined ? { status: b.status } : {}),
        }),
      );
      res.json(userJson(user));
    },
    requestPasswordReset: async (req, res) => {
      const b = validatedBody(req, PasswordResetRequestRequest);
      await callIdentity(res, () => identity.requestPasswordReset({ username: b.username, resetPageLink: b.resetPageLink }));
      // The same answer whether or not the user exists: nobody learns which usernames are taken.
      res.status(202).json({ message: 'If the user exists, a password reset e-mail is on its way' });
    },
    resetPassword: async (req, res) => {
      const b = validatedBody(req, PasswordResetRequest);
      const done = await callIdentity(res, () =>
        identity.resetPassword({
          userId: b.userId,
          token: b.token,
          newPassword: b.newPassword,
          ...(b.loginPageLink !== undefined ? { loginPageLink: b.loginPageLink } : {}),
        }),
      );
      res
        .set('Cache-Control', 'no-store')
        .json({ userId: done.userId, message: done.message, ...(done.redirectTo !== undefined ? { redirectTo: done.redirectTo } : {}) });
    },
  };
}
