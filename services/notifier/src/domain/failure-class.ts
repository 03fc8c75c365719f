/**
 * Why an attempt failed, in the classes a receiver's owner acts on differently: a timeout (slow
 * receiver), a refused connection (nothing listening), DNS (the name does not resolve), TLS (its
 * certificate), our SSRF policy (the URL points somewhere private), another connection error, or the
 * receiver's answer: a redirect, a 4xx or a 5xx (by status), or a 2xx whose acknowledgement is wrong.
 */
export const FAILURE_CLASSES = [
  'TIMEOUT',
  'CONNECTION_REFUSED',
  'DNS',
  'TLS',
  'SSRF_BLOCKED',
  'CONNECTION_ERROR',
  'HTTP_3XX',
  'HTTP_4XX',
  'HTTP_5XX',
  'ACKNOWLEDGEMENT',
] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];

/** A failure's class, with the HTTP status for the answer classes (failures group by both). */
export interface ClassifiedFailure {
  failureClass: FailureClass;
  status: number | null;
}

/** What an attempt ended with, as far as classing needs it. */
export type FailedAttempt =
  { kind: 'response'; statusCode: number } | { kind: 'error'; blocked: boolean; timedOut: boolean; code?: string | undefined; message: string };

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NODATA', 'EAI_NONAME', 'EAI_FAIL']);
/** Node's and OpenSSL's TLS failures: certificate checks, handshake and protocol errors. */
const TLS_CODE = /^(CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_|ERR_TLS_|ERR_SSL_|EPROTO$|HOSTNAME_MISMATCH$)/;

export function classifyFailure(attempt: FailedAttempt): ClassifiedFailure {
  if (attempt.kind === 'response') {
    const { statusCode: status } = attempt;
    if (status >= 500) return { failureClass: 'HTTP_5XX', status };
    if (status >= 400) return { failureClass: 'HTTP_4XX', status };
    if (status >= 300) return { failureClass: 'HTTP_3XX', status };
    return { failureClass: 'ACKNOWLEDGEMENT', status };
  }
  if (attempt.blocked) return { failureClass: 'SSRF_BLOCKED', status: null };
  if (attempt.timedOut) return { failureClass: 'TIMEOUT', status: null };
  const code = attempt.code ?? '';
  if (code === 'ECONNREFUSED') return { failureClass: 'CONNECTION_REFUSED', status: null };
  if (DNS_CODES.has(code)) return { failureClass: 'DNS', status: null };
  if (TLS_CODE.test(code)) return { failureClass: 'TLS', status: null };
  return { failureClass: 'CONNECTION_ERROR', status: null };
}

/** The grouping key of a failure: its class, and its status when it has one (`HTTP_5XX:503`). */
export const failureKey = (failure: ClassifiedFailure): string =>
  failure.status === null ? failure.failureClass : `${failure.failureClass}:${failure.status}`;

export function parseFailureKey(key: string): ClassifiedFailure | undefined {
  const [name, status] = key.split(':');
  if (!(FAILURE_CLASSES as readonly string[]).includes(name ?? '')) return undefined;
  const parsed = status === undefined ? null : Number(status);
  if (parsed !== null && !Number.isInteger(parsed)) return undefined;
  return { failureClass: name as FailureClass, status: parsed };
}
