import { createHmac, randomUUID } from 'node:crypto';

/**
 * The incumbent's HMAC authentication of a callback. Its pages never state the signed string, so we
 * reuse its documented client-request scheme (section 2 of the incumbent notes) and document it:
 *
 *   signed string = METHOD + "|" + PATH_WITH_QUERY + "|" + TIMESTAMP + "|" + BODY
 *   X-Signature   = base64( HMAC-SHA256( key = UTF-8 bytes of the password, signed string ) )
 *   X-Timestamp   = TIMESTAMP, epoch milliseconds as a decimal string
 *   X-Nonce       = a random UUID v4, new per attempt (receivers reject replays)
 *   X-HmacAlgorithm = "HmacSHA256" (the only value)
 *   X-Client-Id   = the username
 *
 * METHOD is upper case, PATH_WITH_QUERY is the URL's path plus "?query" when present, BODY is the
 * exact request body sent.
 */
export const HMAC_ALGORITHM = 'HmacSHA256';

export interface HmacInput {
  clientId: string;
  key: string;
  method: string;
  url: URL;
  body: string;
  nowMs: number;
  nonce?: string;
}

export function hmacSignedString(method: string, url: URL, timestampMs: number, body: string): string {
  return `${method.toUpperCase()}|${url.pathname}${url.search}|${timestampMs}|${body}`;
}

export function hmacHeaders(input: HmacInput): Record<string, string> {
  const signature = createHmac('sha256', Buffer.from(input.key, 'utf8'))
    .update(hmacSignedString(input.method, input.url, input.nowMs, input.body), 'utf8')
    .digest('base64');
  return {
    'X-Client-Id': input.clientId,
    'X-Signature': signature,
    'X-HmacAlgorithm': HMAC_ALGORITHM,
    'X-Timestamp': String(input.nowMs),
    'X-Nonce': input.nonce ?? randomUUID(),
  };
}
