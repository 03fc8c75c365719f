/** What came back from one HTTP attempt, whatever the transport. */
export type AttemptResponse =
  { kind: 'response'; statusCode: number; headers: Readonly<Record<string, string | string[] | undefined>>; body: string } | { kind: 'error'; message: string };

export interface AttemptVerdict {
  succeeded: boolean;
  /** Why it failed, for the attempt log; null on success. */
  error: string | null;
  /** The receiver asked for this wait (429/503 with Retry-After), in milliseconds. */
  retryAfterMs: number | null;
  /** 410 Gone: the receiver asks us to stop; the endpoint is disabled at once. */
  gone: boolean;
}

/** The acknowledgement status values that mean "processed"; the incumbent documents only SUCCESS. */
const SUCCESS_STATUSES = new Set(['SUCCESS']);

/** Parses Retry-After: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The body as the incumbent's AlarmReceived acknowledgement, when it has that shape. */
function acknowledgement(body: string): { id: string; status: string } | null {
  if (!body.trimStart().startsWith('{')) return null;
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    if (typeof parsed['id'] === 'string' && typeof parsed['status'] === 'string') return { id: parsed['id'], status: parsed['status'] };
  } catch {
    // a 2xx with a body that is not JSON is a plain success
  }
  return null;
}

/**
 * Success is a 2xx. A 3xx is a failure (redirects are never followed, so a moved endpoint cannot send
 * our payload elsewhere). A 2xx whose body is the acknowledgement `{id, status, timeEpochMillis}` with
 * another id or a non-success status is a failure, as the incumbent counts it.
 */
export function classifyAttempt(response: AttemptResponse, expectedAckId: string, now: number = Date.now()): AttemptVerdict {
  if (response.kind === 'error') return { succeeded: false, error: response.message, retryAfterMs: null, gone: false };
  const { statusCode } = response;
  if (statusCode >= 200 && statusCode < 300) {
    const ack = acknowledgement(response.body);
    if (ack && ack.id !== expectedAckId) {
      return { succeeded: false, error: `acknowledgement id "${ack.id.slice(0, 100)}" does not match "${expectedAckId}"`, retryAfterMs: null, gone: false };
    }
    if (ack && !SUCCESS_STATUSES.has(ack.status.toUpperCase())) {
      return { succeeded: false, error: `acknowledgement status "${ack.status.slice(0, 100)}" is not SUCCESS`, retryAfterMs: null, gone: false };
    }
    return { succeeded: true, error: null, retryAfterMs: null, gone: false };
  }
  if (statusCode >= 300 && statusCode < 400) {
    return { succeeded: false, error: `HTTP ${statusCode}: redirects are not followed`, retryAfterMs: null, gone: false };
  }
  if (statusCode === 410) return { succeeded: false, error: 'HTTP 410 Gone: endpoint disabled', retryAfterMs: null, gone: true };
  const retryAfterMs = statusCode === 429 || statusCode === 503 ? parseRetryAfter(response.headers['retry-after'], now) : null;
  return { succeeded: false, error: `HTTP ${statusCode}`, retryAfterMs, gone: false };
}

/**
 * The wait before the next attempt: the policy's retryDelay, or the receiver's Retry-After when longer,
 * clamped to twice the scheduled delay (Svix) so that a receiver cannot park a delivery for days.
 */
export function nextRetryDelayMs(retryDelaySeconds: number, retryAfterMs: number | null): number {
  const scheduled = retryDelaySeconds * 1000;
  if (retryAfterMs === null) return scheduled;
  return Math.max(scheduled, Math.min(retryAfterMs, 2 * scheduled));
}
