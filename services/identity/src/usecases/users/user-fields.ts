import { validation } from '../../errors.js';
import * as fields from '../../domain/fields.js';
import { isRole, ROLES, type Role } from '@stormhook/access';
import { DEFAULT_LOCALE, DEFAULT_TIMEZONE } from '../../domain/user.js';
import { fail, ok, type Result } from '../../result.js';

export interface UserFieldsInput {
  username: unknown;
  firstName: unknown;
  lastName: unknown;
  midName?: unknown;
  locale?: unknown;
  timezone?: unknown;
  role: unknown;
}

export interface UserFields {
  username: string;
  firstName: string;
  lastName: string;
  midName?: string;
  locale: string;
  timezone: string;
  role: Role;
}

/** Passwords: 8 to 256 characters (the gateway schema's bounds); length, not composition rules (NIST 800-63B). */
export function password(field: string, value: unknown): Result<string> {
  if (typeof value !== 'string') return fail(validation(field, 'must be a string'));
  if (value.length < 8) return fail(validation(field, 'must have at least 8 characters'));
  if (value.length > 256) return fail(validation(field, 'must have at most 256 characters'));
  return ok(value);
}

/** Validates the user fields of a create request; locale and time zone default to Türkiye's. */
export function parseUserFields(input: UserFieldsInput): Result<UserFields> {
  const username = fields.email('username', input.username);
  if (!username.ok) return username;
  const firstName = fields.text('firstName', input.firstName, { min: 1, max: 100 });
  if (!firstName.ok) return firstName;
  const lastName = fields.text('lastName', input.lastName, { min: 1, max: 100 });
  if (!lastName.ok) return lastName;
  const midName =
    input.midName === undefined || input.midName === null || input.midName === '' ? undefined : fields.text('midName', input.midName, { max: 100 });
  if (midName && !midName.ok) return midName;
  const locale = fields.locale('locale', input.locale ?? DEFAULT_LOCALE);
  if (!locale.ok) return locale;
  const timezone = fields.timezone('timezone', input.timezone ?? DEFAULT_TIMEZONE);
  if (!timezone.ok) return timezone;
  if (!isRole(input.role)) return fail(validation('role', `must be one of ${ROLES.join(', ')}`));
  return ok({
    username: username.value,
    firstName: firstName.value,
    lastName: lastName.value,
    ...(midName?.ok && midName.value !== '' ? { midName: midName.value } : {}),
    locale: locale.value,
    timezone: timezone.value,
    role: input.role,
  });
}
