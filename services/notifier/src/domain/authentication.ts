import { fail, ok, validation, type Result } from './notifier-error.js';

/**
 * How credentials go on a callback (incumbent webhook-endpoint-guide, section 1.1 of our notes):
 *
 * | type           | what is sent                                                        |
 * |----------------|---------------------------------------------------------------------|
 * | NONE           | nothing                                                             |
 * | BASIC          | `Authorization: Basic base64(username:password)`                    |
 * | API_KEY_HEADER | `X-API-Key: <password>` (the incumbent's API_KEY, header mode)      |
 * | API_KEY_QUERY  | `?apiKey=<password>` added to the URL (query mode)                  |
 * | BEARER         | `Authorization: Bearer <password>` (the incumbent's JWT)            |
 * | HMAC           | `X-Client-Id`, `X-Signature`, `X-HmacAlgorithm`, `X-Timestamp`, `X-Nonce` (see hmac-auth.ts) |
 *
 * The public object keeps the incumbent's `{type, username, password}` shape: `password` always holds
 * the secret (password, key, token or HMAC key) and is the only part encrypted at rest and masked.
 */
export const AUTH_TYPES = ['NONE', 'BASIC', 'API_KEY_HEADER', 'API_KEY_QUERY', 'BEARER', 'HMAC'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];

/** Names the incumbent's documentation uses, accepted on input. */
const ALIASES: Readonly<Record<string, AuthType>> = { API_KEY: 'API_KEY_HEADER', JWT: 'BEARER' };

/** What responses show instead of a stored secret. */
export const MASK = '******';

export interface AuthenticationInput {
  type?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
}

/** Credentials in clear, as the sender needs them; only ever held in memory. */
export interface Authentication {
  type: AuthType;
  /** User name (BASIC) or client id (HMAC); '' otherwise. */
  username: string;
  /** The secret; '' for NONE. */
  password: string;
}

export const NO_AUTHENTICATION: Authentication = { type: 'NONE', username: '', password: '' };

const MAX_LENGTH = 1_024;
const MIN_HMAC_KEY_LENGTH = 16;

export function parseAuthType(raw: string | undefined): AuthType | undefined {
  if (raw === undefined || raw.trim() === '') return 'NONE';
  const upper = raw.trim().toUpperCase();
  return ALIASES[upper] ?? ((AUTH_TYPES as readonly string[]).find((t) => t === upper) as AuthType | undefined);
}

/**
 * Validates credentials. `stored` is the current secret on update: an empty or masked password keeps
 * it, so that a client may send back what it read.
 */
export function validateAuthentication(input: AuthenticationInput | undefined, stored?: Authentication): Result<Authentication> {
  const type = parseAuthType(input?.type);
  if (!type) return fail(validation('webhook.authentication.type', `must be one of ${AUTH_TYPES.join(', ')}`));
  if (type === 'NONE') return ok(NO_AUTHENTICATION);

  const username = (input?.username ?? '').trim();
  let password = input?.password ?? '';
  if ((password === '' || password === MASK) && stored && stored.type === type) password = stored.password;

  if (username.length > MAX_LENGTH) return fail(validation('webhook.authentication.username', `must be at most ${MAX_LENGTH} characters`));
  if (password === '' || password === MASK) return fail(validation('webhook.authentication.password', `is required for ${type}`));
  if (password.length > MAX_LENGTH) return fail(validation('webhook.authentication.password', `must be at most ${MAX_LENGTH} characters`));
  if (/[\r\n\0]/.test(password) || /[\r\n\0]/.test(username)) {
    return fail(validation('webhook.authentication', 'must not contain line breaks'));
  }
  if ((type === 'BASIC' || type === 'HMAC') && username === '') {
    return fail(validation('webhook.authentication.username', `is required for ${type}`));
  }
  if (type === 'BASIC' && username.includes(':')) return fail(validation('webhook.authentication.username', 'must not contain ":" for BASIC'));
  if (type === 'HMAC' && password.length < MIN_HMAC_KEY_LENGTH) {
    return fail(validation('webhook.authentication.password', `must be at least ${MIN_HMAC_KEY_LENGTH} characters for HMAC`));
  }
  return ok({ type, username: type === 'BASIC' || type === 'HMAC' ? username : '', password });
}
