import { ROLES, Role, USER_STATUSES, UserStatus, pageNumber, pageSize, url, uuid } from './common.js';
import { Account } from './accounts.js';
import { arrayOf, closedObject, named, openObject, pathParams, type JsonSchema } from './json-schema.js';

/** `[A, B]`: the bracket notation of interface.md 4.16, with the values restricted to `values`. */
function bracketList(values: readonly string[]): string {
  const one = `(${values.join('|')})`;
  return `^\\[\\s*(${one}(\\s*,\\s*${one})*)?\\s*\\]$`;
}

/** The contract sends the filter as a list written inside a string; a real JSON array is accepted too. */
function listFilter<const S extends JsonSchema>(values: readonly string[], itemSchema: S, example: string) {
  return {
    anyOf: [{ type: 'string', pattern: bracketList(values) }, arrayOf(itemSchema, { uniqueItems: true })],
    description: `a bracketed list such as "${example}" (or a JSON array) of ${values.join(', ')}`,
  } as const;
}

/** interface.md 4.16. */
export const UserPageRequest = named(
  'UserPageRequest',
  closedObject({
    roles: listFilter(ROLES, Role, '[ADMIN, API_USER]'),
    status: listFilter(USER_STATUSES, UserStatus, '[ACTIVE, BLOCKED]'),
    sortBy: {
      type: 'object',
      propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_.]{0,63}$' },
      additionalProperties: { type: 'string', enum: ['asc', 'desc'] },
      maxProperties: 8,
      description: 'field name (e.g. username, status) to direction asc or desc',
    },
    pageNumber,
    pageSize,
    includeAccount: { type: 'boolean' },
  }),
);

/** interface.md 2.10. */
export const User = named(
  'User',
  openObject(
    {
      userId: uuid,
      username: { type: 'string', description: 'e-mail address' },
      firstName: { type: 'string' },
      lastName: { type: 'string' },
      midName: { type: 'string' },
      locale: { type: 'string', examples: ['tr_TR'] },
      timezone: { type: 'string', examples: ['Europe/Istanbul'] },
      roles: Role,
      status: UserStatus,
      account: Account,
    },
    ['userId', 'username', 'roles', 'status'],
  ),
);

export const UserPage = named(
  'UserPage',
  openObject(
    {
      users: arrayOf(User),
      totalRecords: { type: 'integer', format: 'int64' },
      pageNumber: { type: 'integer', format: 'int32' },
      pageSize: { type: 'integer', format: 'int32' },
    },
    ['users', 'totalRecords', 'pageNumber', 'pageSize'],
  ),
);

export const UserIdParams = pathParams({ userId: uuid });

/** interface.md 4.18. */
export const PasswordResetRequest = named(
  'PasswordResetRequest',
  closedObject(
    {
      userId: uuid,
      token: { type: 'string', minLength: 1, maxLength: 2048 },
      newPassword: { type: 'string', minLength: 8, maxLength: 256, writeOnly: true },
      loginPageLink: { ...url, description: 'receives a `message` parameter with the outcome' },
    },
    ['userId', 'token', 'newPassword'],
  ),
);

/**
 * The outcome of 4.18. With loginPageLink, `redirectTo` is that page with the `message` parameter:
 * the calling page navigates there (a 303 would be followed silently by fetch/XHR, which is how a
 * JSON API is called, and the page would never see it).
 */
export const PasswordResetResponse = named(
  'PasswordResetResponse',
  openObject({
    userId: uuid,
    message: { type: 'string' },
    redirectTo: { type: 'string', format: 'uri', description: 'loginPageLink with the message parameter, when loginPageLink was given' },
  }),
);

const personName = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength }) as const;

/** ADMIN creates a user with an initial password, or with invite: true and an invitation page. */
export const CreateUserRequest = named(
  'CreateUserRequest',
  closedObject(
    {
      username: { type: 'string', format: 'email', maxLength: 254, description: 'e-mail address' },
      firstName: personName(100),
      lastName: personName(100),
      midName: { type: 'string', maxLength: 100 },
      locale: { type: 'string', pattern: '^[a-z]{2,3}_[A-Z]{2}$', examples: ['tr_TR'], description: 'default tr_TR' },
      timezone: { type: 'string', maxLength: 64, examples: ['Europe/Istanbul'], description: 'IANA time zone; default Europe/Istanbul' },
      roles: Role,
      role: Role,
      password: { type: 'string', minLength: 8, maxLength: 256, writeOnly: true, description: 'initial password; the user is ACTIVE at once' },
      invite: { type: 'boolean', description: 'true: e-mail an invitation instead; the user is INACTIVE until they set a password' },
      invitationPageLink: { ...url, description: 'page the invitation links to, with userId and token parameters (required with invite)' },
    },
    ['username', 'firstName', 'lastName'],
    {
      // `roles` is the User resource's name; `role` stays for clients written against the first version.
      oneOf: [
        { required: ['roles'], not: { required: ['role'] } },
        { required: ['role'], not: { required: ['roles'] } },
      ],
      description: 'exactly one of roles (the name of the User resource, 2.10) or its older alias role',
    },
  ),
);

export const CreatedUser = named(
  'CreatedUser',
  openObject(
    {
      ...(User['properties'] as Record<string, JsonSchema>),
      invitation: openObject({ sent: { type: 'boolean' }, expiresAt: { type: 'string', format: 'date-time' } }, ['sent', 'expiresAt'], {
        description: 'present for invited users; the token itself is only in the e-mail',
      }),
    },
    ['userId', 'username', 'roles', 'status'],
  ),
);

/** ADMIN changes a user's role and/or status (never their own). */
export const ChangeRoleAndStatusRequest = named('ChangeRoleAndStatusRequest', closedObject({ userId: uuid, role: Role, status: UserStatus }, ['userId']));

export const PasswordResetRequestRequest = named(
  'PasswordResetRequestRequest',
  closedObject(
    {
      username: { type: 'string', format: 'email', maxLength: 254 },
      resetPageLink: { ...url, description: 'page the e-mail links to, with userId and token parameters' },
    },
    ['username', 'resetPageLink'],
  ),
);

export const PasswordResetRequested = named('PasswordResetRequested', openObject({ message: { type: 'string' } }, ['message']));
