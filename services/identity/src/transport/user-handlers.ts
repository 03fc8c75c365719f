import { requireActor } from './actor.js';
import { unwrap } from './errors.js';
import type { IdentityHandlerDeps, IdentityHandlers } from './handler-deps.js';
import { userMessage } from './mapping.js';

type UserRpcs = 'createUser' | 'changeUserRoleAndStatus' | 'getCurrentUser' | 'getUser' | 'listUsers' | 'requestPasswordReset' | 'resetPassword';

const given = <T>(value: T | undefined): { value?: T } => (value === undefined ? {} : { value });

/** interface.md 4.16 - 4.19 and the user administration of the issue. */
export function userHandlers({ uc, users, logger }: IdentityHandlerDeps): IdentityHandlers<UserRpcs> {
  return {
    createUser: async (req, call) => {
      const actor = await requireActor(users, call, req.actor);
      const created = unwrap(
        await uc.createUser.createUser(actor, {
          username: req.username,
          firstName: req.firstName,
          lastName: req.lastName,
          ...(req.midName !== undefined ? { midName: req.midName } : {}),
          ...(req.locale !== undefined ? { locale: req.locale } : {}),
          ...(req.timezone !== undefined ? { timezone: req.timezone } : {}),
          role: req.role,
          ...(req.password !== undefined ? { password: req.password } : {}),
          invite: req.invite,
          ...(req.invitationPageLink !== undefined ? { invitationPageLink: req.invitationPageLink } : {}),
        }),
      );
      // The invitation token went into the e-mail only: answering it would hand the ADMIN the user's first password.
      return {
        user: userMessage(created.user),
        invitationSent: created.invitation?.messageSent ?? false,
        ...(created.invitation ? { invitationExpiresAtEpochMs: created.invitation.expiresAt.getTime() } : {}),
      };
    },
    changeUserRoleAndStatus: async (req, call) => {
      const actor = await requireActor(users, call, req.actor);
      const role = given(req.role).value;
      const status = given(req.status).value;
      return userMessage(unwrap(await uc.changeRoleAndStatus.changeRoleAndStatus(actor, { userId: req.userId, role, status })));
    },
    getCurrentUser: async (req, call) => userMessage(unwrap(await uc.userQueries.getMe(await requireActor(users, call, req.actor)))),
    getUser: async (req, call) => userMessage(unwrap(await uc.userQueries.getUser(await requireActor(users, call, req.actor), req.userId))),
    listUsers: async (req, call) => {
      const actor = await requireActor(users, call, req.actor);
      const page = unwrap(
        await uc.userQueries.pageUsers(actor, {
          roles: req.roles || undefined,
          status: req.status || undefined,
          // An object keeps insertion order for these (non-numeric) names: the first entry sorts first.
          sortBy: req.sortBy.length > 0 ? Object.fromEntries(req.sortBy.map((s) => [s.field, s.direction])) : undefined,
          pageNumber: req.pageNumber,
          pageSize: req.pageSize,
          includeAccount: req.includeAccount,
        }),
      );
      return {
        users: page.users.map(userMessage),
        page: { pageNumber: page.pageNumber, pageSize: page.pageSize, totalRecords: page.totalRecords },
      };
    },
    requestPasswordReset: async (req) => {
      const input = { username: req.username, resetPageLink: req.resetPageLink };
      unwrap(uc.passwordReset.checkRequest(input));
      // Answered before the user is looked up: a known user's token and e-mail take longer than an unknown
      // user's nothing, and that difference would tell a prober which usernames exist. The caller learns
      // nothing either way; operators see why nothing was sent. A crash in between loses the e-mail: the
      // user asks again.
      void uc.passwordReset.requestReset(input).then(
        (result) => {
          if (!result.ok) logger.warn({ error: result.error }, 'password reset request failed');
          else if (!result.value.sent) logger.info({ reason: result.value.reason }, 'password reset requested; no e-mail sent');
          else logger.info({ userId: result.value.message.userId }, 'password reset e-mail requested');
        },
        (error: unknown) => logger.error({ err: error }, 'password reset request failed'),
      );
      return {};
    },
    resetPassword: async (req) => {
      const done = unwrap(
        await uc.passwordReset.resetPassword({
          userId: req.userId,
          token: req.token,
          newPassword: req.newPassword,
          ...(req.loginPageLink !== undefined ? { loginPageLink: req.loginPageLink } : {}),
        }),
      );
      return { userId: done.userId, message: done.message, ...(done.redirectTo !== undefined ? { redirectTo: done.redirectTo } : {}) };
    },
  };
}
