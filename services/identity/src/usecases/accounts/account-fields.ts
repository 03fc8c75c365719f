import { validation } from '../../errors.js';
import { ACCOUNT_TYPES, type AccountType } from '../../domain/account.js';
import * as fields from '../../domain/fields.js';
import type { AccountProfilePatch } from '../../ports/repositories.js';
import { fail, ok, type Result } from '../../result.js';

/** The profile fields of 4.13 / 4.14 as they arrive. */
export interface AccountProfileInput {
  type?: unknown;
  mobilePhoneNumber?: unknown;
  location?: unknown;
  company?: unknown;
  industry?: unknown;
  profilePictureUrl?: unknown;
}

const TEXT_LIMITS = { location: 512, company: 256, industry: 128 } as const;

/**
 * Validates the fields present in `input`; `null` or "" means "remove" (update only). Unknown fields
 * are the transport's business (the gateway schema is closed), so they are ignored here.
 */
export function parseProfilePatch(input: AccountProfileInput): Result<AccountProfilePatch> {
  const patch: AccountProfilePatch = {};
  if (input.type !== undefined) {
    const type = fields.oneOf<AccountType>('type', input.type, ACCOUNT_TYPES);
    if (!type.ok) return type;
    patch.type = type.value;
  }
  const cleared = (value: unknown): boolean => value === null || value === '';
  if (input.mobilePhoneNumber !== undefined) {
    if (cleared(input.mobilePhoneNumber)) patch.mobilePhoneNumber = null;
    else {
      const phone = fields.e164('mobilePhoneNumber', input.mobilePhoneNumber);
      if (!phone.ok) return phone;
      patch.mobilePhoneNumber = phone.value;
    }
  }
  for (const name of ['location', 'company', 'industry'] as const) {
    const value = input[name];
    if (value === undefined) continue;
    if (cleared(value)) {
      patch[name] = null;
      continue;
    }
    const checked = fields.text(name, value, { max: TEXT_LIMITS[name] });
    if (!checked.ok) return checked;
    patch[name] = checked.value === '' ? null : checked.value;
  }
  if (input.profilePictureUrl !== undefined) {
    if (cleared(input.profilePictureUrl)) patch.profilePictureUrl = null;
    else {
      const url = fields.httpUrl('profilePictureUrl', input.profilePictureUrl);
      if (!url.ok) return url;
      patch.profilePictureUrl = url.value.href;
    }
  }
  return ok(patch);
}

export function requireType(input: AccountProfileInput): Result<AccountType> {
  if (input.type === undefined || input.type === null) return fail(validation('type', `is required: one of ${ACCOUNT_TYPES.join(', ')}`));
  return fields.oneOf<AccountType>('type', input.type, ACCOUNT_TYPES);
}
