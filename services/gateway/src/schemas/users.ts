import { ROLES, Role, USER_STATUSES, UserStatus, pageNumber, pageSize, url, uuid } from './common.js';
import { Account } from './accounts.js';
import { arrayOf, closedObject, named, openObject, pathParams, type JsonSchema } from './json-schema.js';

/** `[A, B]`: the bracket notation of interface.md 4.16, with the values restricted to `values`. */
function bracketList(values: readonly string[]): string {
  const one = `(${values.join('|')})`;
  return `^\\[\\s*(${one}(\\s*,\\s*${one})*)?\\s*\\]$`;
}

/** The contract sends the filter as a list written inside a string; a real JSON array is accepted too. */
function listFilter(values: readonly string[], itemSchema: JsonSchema, example: string): JsonSchema {
  return {
    anyOf: [
      { type: 'string', pattern: bracketList(values) },
      arrayOf(itemSchema, { uniqueItems: true }),
    ],
    description: `a bracketed list such as "${example}" (or a JSON array) of ${values.join(', ')}`,
  };
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

export const PasswordResetResponse = named(
  'PasswordResetResponse',
  openObject({ userId: uuid, message: { type: 'string' } }),
);
