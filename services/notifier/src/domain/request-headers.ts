import type { AuthType } from './authentication.js';
import { fail, ok, validation, type Result } from './notifier-error.js';

/**
 * Names a customer may not set (reliability rules): framing and hop-by-hop headers would corrupt the
 * request, `user-agent` identifies us, and `webhook-*` carries the Standard Webhooks signature.
 */
const ALWAYS_RESERVED = new Set([
  'content-type',
  'content-length',
  'host',
  'connection',
  'transfer-encoding',
  'te',
  'upgrade',
  'user-agent',
  'keep-alive',
  'expect',
  'proxy-authorization',
  'proxy-connection',
  'trailer',
]);

/** Headers the chosen authentication writes; a custom one would be overwritten or forge it. */
const AUTH_HEADERS: Readonly<Record<AuthType, readonly string[]>> = {
  NONE: [],
  BASIC: ['authorization'],
  BEARER: ['authorization'],
  API_KEY_HEADER: ['authorization', 'x-api-key'],
  API_KEY_QUERY: ['authorization'],
  HMAC: ['authorization', 'x-client-id', 'x-signature', 'x-hmacalgorithm', 'x-timestamp', 'x-nonce'],
};

/** RFC 9110 token characters. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
export const MAX_CUSTOM_HEADERS = 20;
const MAX_VALUE_LENGTH = 4_096;

export function isReservedHeader(name: string, authType: AuthType): boolean {
  const lower = name.toLowerCase();
  return ALWAYS_RESERVED.has(lower) || lower.startsWith('webhook-') || AUTH_HEADERS[authType].includes(lower);
}

/** Validates `webhook.requestHeaders`; names keep the caller's spelling. */
export function validateRequestHeaders(input: Record<string, string> | undefined, authType: AuthType): Result<Record<string, string>> {
  const headers: Record<string, string> = {};
  const entries = Object.entries(input ?? {});
  if (entries.length > MAX_CUSTOM_HEADERS) {
    return fail(validation('webhook.requestHeaders', `must have at most ${MAX_CUSTOM_HEADERS} headers`));
  }
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    const field = `webhook.requestHeaders.${name}`;
    if (!TOKEN.test(name)) return fail(validation(field, 'is not a valid header name'));
    if (isReservedHeader(name, authType)) return fail(validation(field, 'is a reserved header name'));
    if (seen.has(name.toLowerCase())) return fail(validation(field, 'is given twice'));
    seen.add(name.toLowerCase());
    if (typeof value !== 'string' || /[\r\n\0]/.test(value)) return fail(validation(field, 'must be text without line breaks'));
    if (value.length > MAX_VALUE_LENGTH) return fail(validation(field, `must be at most ${MAX_VALUE_LENGTH} characters`));
    headers[name] = value;
  }
  return ok(headers);
}
