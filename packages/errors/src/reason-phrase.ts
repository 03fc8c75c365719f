import { STATUS_CODES } from 'node:http';

/**
 * Reason phrases as Spring's HttpStatus spells them, because the incumbent's `error` field is
 * Spring's and clients compare it; pinned here so a Node upgrade that renames a phrase in
 * http.STATUS_CODES cannot change the wire format. Node's table is only the fallback.
 */
const PHRASES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The HTTP reason phrase of `status`, never empty (ErrorResponse.error needs at least 1 character). */
export function reasonPhrase(status: number): string {
  return PHRASES[status] ?? STATUS_CODES[status] ?? `HTTP ${status}`;
}
