/**
 * The catalogue of webhook event types: the `type` of every callback body and its `webhook-event-type`
 * header. Receivers switch on these strings, so renaming one is a breaking change of the payload
 * contract (a new payload version), never a refactoring.
 */
export const WEBHOOK_EVENT_TYPES = [
  'lightning.strike',
  'lightning.all_clear',
  'lightning.approaching',
  'thunderstorm.start',
  'thunderstorm.update',
  'thunderstorm.end',
  'thunderstorm.approaching',
  'thunderstorm.approach_cancelled',
  'precipitation.start',
  'precipitation.update',
  'precipitation.end',
  'precipitation.approaching',
  'precipitation.approach_cancelled',
  'forecast.alarm',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * Version of the payload shape, sent as `payloadVersion` in every body. Within a version fields are
 * only added (receivers must ignore fields they do not know); removing or renaming a field, changing
 * its type, unit or meaning, or renaming an event type makes the next version.
 * Version 2 (storm arrival): thunderstorm `eventStartUtc`/`eventEndUtc` became the entry into and exit
 * from the registered area (the storm's lifetime moved to `stormStartUtc`/`stormEndUtc`); precipitation
 * `timeEpochMillis` became the predicted arrival at the target's centroid (the scan time moved to
 * `observedEpochMillis`); START and UPDATE carry `eta`; the approaching stages (storms, rain and the
 * lightning approach ring) were added.
 */
export const WEBHOOK_PAYLOAD_VERSION = 2;

/** The header carrying the event type, so a receiver can route before parsing the body. */
export const EVENT_TYPE_HEADER = 'webhook-event-type';

/**
 * On a callback sent again by a recovery (POST /v1/alarms/webhooks/recover): the recovery job's id.
 * The body says the same in its `recovered` field; the webhook-id is the original one, so receivers
 * that de-duplicate on it see a repeat.
 */
export const RECOVERED_HEADER = 'webhook-recovered';

/** The body of a callback sent again by a recovery: the original payload with `recovered: true` added. */
export function recoveredPayload(payload: string): string {
  try {
    const parsed: unknown = JSON.parse(payload);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return JSON.stringify({ ...parsed, recovered: true });
  } catch {
    // not a JSON object: sent as it was, the header alone says it is recovered
  }
  return payload;
}

/** The fields every payload starts with: what it is, in which shape, and when it happened. */
export interface WebhookEnvelope {
  type: WebhookEventType;
  payloadVersion: typeof WEBHOOK_PAYLOAD_VERSION;
  /** ISO 8601 UTC with Z. */
  timestamp: string;
}

export function webhookEnvelope(type: WebhookEventType, timestampMs: number): WebhookEnvelope {
  return { type, payloadVersion: WEBHOOK_PAYLOAD_VERSION, timestamp: new Date(timestampMs).toISOString() };
}
