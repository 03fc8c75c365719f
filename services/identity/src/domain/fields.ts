import { validation } from '../errors.js';
import { fail, ok, type Result } from '../result.js';

/**
 * Field validators shared by the use cases. Each names the field it checks, so a 400 tells the
 * caller exactly what to fix, and returns the normalised value (trimmed, lower-cased e-mail, E.164
 * without separators) that is what gets stored.
 */

const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// eslint-disable-next-line no-control-regex -- matching control characters is the point: text fields reject them
const CONTROL = /[\u0000-\u001f\u007f]/;

export function text(field: string, value: unknown, opts: { min?: number; max: number }): Result<string> {
  if (typeof value !== 'string') return fail(validation(field, 'must be a string'));
  const trimmed = value.trim();
  const min = opts.min ?? 0;
  if (trimmed.length < min) return fail(validation(field, min <= 1 ? 'must not be empty' : `must have at least ${min} characters`));
  if (trimmed.length > opts.max) return fail(validation(field, `must have at most ${opts.max} characters`));
  if (CONTROL.test(trimmed)) return fail(validation(field, 'must not contain control characters'));
  return ok(trimmed);
}

/** Usernames are e-mail addresses, stored lower-cased so that `Ada@X.io` and `ada@x.io` are one user. */
export function email(field: string, value: unknown): Result<string> {
  if (typeof value !== 'string') return fail(validation(field, 'must be an e-mail address'));
  const trimmed = value.trim().toLowerCase();
  if (trimmed.length > 254 || !EMAIL.test(trimmed)) return fail(validation(field, 'must be an e-mail address'));
  return ok(trimmed);
}

export function uuid(field: string, value: unknown): Result<string> {
  if (typeof value !== 'string' || !UUID.test(value)) return fail(validation(field, 'must be a UUID'));
  return ok(value.toLowerCase());
}

/** `language_REGION` as in the contract (`tr_TR`), checked against Intl so `xx_YY` nonsense is refused. */
export function locale(field: string, value: unknown): Result<string> {
  if (typeof value !== 'string' || !/^[a-z]{2,3}_[A-Z]{2}$/.test(value)) {
    return fail(validation(field, 'must be a locale of the form language_REGION, e.g. tr_TR'));
  }
  try {
    const [canonical] = Intl.getCanonicalLocales(value.replace('_', '-'));
    if (canonical === undefined) throw new RangeError('no locale');
    const language = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }).of(value.slice(0, value.indexOf('_')));
    const region = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' }).of(value.slice(value.indexOf('_') + 1));
    if (language === undefined || region === undefined) throw new RangeError('unknown language or region');
  } catch {
    return fail(validation(field, `unknown locale ${value}`));
  }
  return ok(value);
}

/** An IANA zone name (`Europe/Istanbul`, `UTC`); fixed offsets such as `+03:00` are not time zones. */
export function timezone(field: string, value: unknown): Result<string> {
  if (typeof value !== 'string' || !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value) || value.length > 64) {
    return fail(validation(field, 'must be an IANA time zone, e.g. Europe/Istanbul'));
  }
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
  } catch {
    return fail(validation(field, `unknown time zone ${value}`));
  }
  return ok(value);
}

/**
 * A phone number in E.164 (`+905321234567`). Spaces, dashes, dots and parentheses that people type are
 * dropped; the leading + is required, because without a country code an SMS goes to the wrong country.
 */
export function e164(field: string, value: unknown): Result<string> {
  if (typeof value !== 'string') return fail(validation(field, 'must be a phone number in E.164 form, e.g. +905321234567'));
  const compact = value.trim().replace(/[\s().-]/g, '');
  if (!/^\+[1-9][0-9]{6,14}$/.test(compact)) {
    return fail(validation(field, 'must be a phone number in E.164 form, e.g. +905321234567'));
  }
  return ok(compact);
}

/** An absolute http(s) address. */
export function httpUrl(field: string, value: unknown): Result<URL> {
  if (typeof value !== 'string' || value.length > 2048) return fail(validation(field, 'must be an http(s) URL'));
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail(validation(field, 'must be an http(s) URL'));
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail(validation(field, 'must be an http(s) URL'));
  if (url.username !== '' || url.password !== '') return fail(validation(field, 'must not carry credentials'));
  return ok(url);
}

export function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): Result<T> {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return ok(value as T);
  return fail(validation(field, `must be one of ${allowed.join(', ')}`));
}
