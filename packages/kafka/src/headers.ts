import type { IHeaders } from 'kafkajs';

/** Header names every event carries. Part of the wire contract (and the public feed contract). */
export const EVENT_HEADERS = {
  eventType: 'event-type',
  eventId: 'event-id',
  schemaVersion: 'schema-version',
  contentType: 'content-type',
  traceparent: 'traceparent',
  tracestate: 'tracestate',
} as const;

/** Headers added to a record on the dead-letter topic, beside its original headers. */
export const DEAD_LETTER_HEADERS = {
  reason: 'deadletter-reason',
  sourceTopic: 'deadletter-source-topic',
  sourcePartition: 'deadletter-source-partition',
  sourceOffset: 'deadletter-source-offset',
  consumerGroup: 'deadletter-consumer-group',
  failedAt: 'deadletter-failed-at',
} as const;

/** Record values are protobuf messages unless a header says otherwise. */
export const PROTOBUF_CONTENT_TYPE = 'application/x-protobuf';

export interface EventHeaders {
  eventType: string;
  eventId: string;
  schemaVersion: number;
  contentType: string;
  traceparent?: string;
  tracestate?: string;
  /** Every header as text (first value of repeated ones), the ones above included. */
  all: Record<string, string>;
}

export type HeaderParseResult = { ok: true; headers: EventHeaders } | { ok: false; reason: string };

const MAX_ID_LENGTH = 200;

/** kafkajs hands headers over as Buffers (strings when we built them ourselves); repeats as arrays. */
export function headersAsText(raw: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first === undefined) continue;
    out[name] = typeof first === 'string' ? first : first.toString('utf8');
  }
  return out;
}

/**
 * Reads the event headers of a consumed record. A record without a usable event type or id cannot be
 * routed nor de-duplicated, so the caller dead-letters it with the reason returned here.
 */
export function parseEventHeaders(raw: IHeaders | undefined): HeaderParseResult {
  const all = headersAsText(raw);
  const eventType = all[EVENT_HEADERS.eventType]?.trim();
  if (!eventType) return { ok: false, reason: `missing header ${EVENT_HEADERS.eventType}` };
  const eventId = all[EVENT_HEADERS.eventId]?.trim();
  if (!eventId) return { ok: false, reason: `missing header ${EVENT_HEADERS.eventId}` };
  if (eventId.length > MAX_ID_LENGTH) {
    return { ok: false, reason: `header ${EVENT_HEADERS.eventId} longer than ${MAX_ID_LENGTH} characters` };
  }

  const versionText = all[EVENT_HEADERS.schemaVersion];
  let schemaVersion = 1;
  if (versionText !== undefined) {
    if (!/^[1-9][0-9]{0,5}$/.test(versionText.trim())) {
      return { ok: false, reason: `header ${EVENT_HEADERS.schemaVersion} is not a positive integer: "${versionText}"` };
    }
    schemaVersion = Number(versionText.trim());
  }

  const headers: EventHeaders = {
    eventType,
    eventId,
    schemaVersion,
    contentType: all[EVENT_HEADERS.contentType] ?? PROTOBUF_CONTENT_TYPE,
    all,
  };
  const traceparent = all[EVENT_HEADERS.traceparent];
  if (traceparent !== undefined) headers.traceparent = traceparent;
  const tracestate = all[EVENT_HEADERS.tracestate];
  if (tracestate !== undefined) headers.tracestate = tracestate;
  return { ok: true, headers };
}
