import type { ReceivedCall } from './webhook-receiver.js';

export type CallbackKind = 'LIGHTNING' | 'ALL_CLEAR' | 'THUNDERSTORM' | 'PRECIPITATION' | 'FORECAST' | 'TEST' | 'UNKNOWN';

/** One notification as the customer sees it: the webhook-id and what the payload is about. */
export interface Notification {
  webhookId: string;
  kind: CallbackKind;
  /** START, UPDATE, END or ALL_CLEAR (forecasts: FORECAST). */
  stage: string;
  registrationId: string;
  recipientId: string;
  /** The weather event it is about (strike, storm, rain area, slot). */
  event: string;
  // Payload fields vary by kind; the story asserts the ones it relies on.
  payload: Record<string, any>;
}

/**
 * What a payload is about, read the way a receiver would: it routes on the body's `type` (the
 * webhooks section of /v1/openapi.json lists them), then reads the fields that type documents.
 */
export function classify(call: ReceivedCall): Notification {
  let payload: Record<string, any>;
  try {
    payload = JSON.parse(call.body) as Record<string, any>;
  } catch {
    payload = {};
  }
  const webhookId = String(call.headers['webhook-id'] ?? '');
  const common = { webhookId, registrationId: String(payload['registrationId'] ?? ''), recipientId: String(payload['recipientId'] ?? ''), payload };
  const stage = String(payload['stage'] ?? '');
  switch (payload['type']) {
    case 'webhook.test':
      return { ...common, kind: 'TEST', stage: 'TEST', event: 'test' };
    case 'lightning.all_clear':
      return { ...common, kind: 'ALL_CLEAR', stage: 'ALL_CLEAR', event: `lightning-episode@${payload['firstStrikeEpochMillis']}` };
    case 'lightning.strike':
      return { ...common, kind: 'LIGHTNING', stage, event: String(payload['strikeId']) };
    case 'thunderstorm.start':
    case 'thunderstorm.update':
    case 'thunderstorm.end':
      return { ...common, kind: 'THUNDERSTORM', stage, event: String(payload['thunderstormId']) };
    case 'precipitation.start':
    case 'precipitation.update':
    case 'precipitation.end':
      return { ...common, kind: 'PRECIPITATION', stage, event: String(payload['eventId']) };
    case 'forecast.alarm':
      return { ...common, kind: 'FORECAST', stage: 'FORECAST', event: String(payload['scheduledTime']) };
    default:
      return { ...common, kind: 'UNKNOWN', stage: '', event: '' };
  }
}

export interface DeliveryFigures {
  /** Distinct webhook-ids received. */
  notifications: number;
  /** Requests received in all (retries of a webhook-id included). */
  requests: number;
  /** Webhook-ids received more than once (retried after a failure answer): at least once. */
  redelivered: number;
  /** Distinct webhook-ids for one (registration, kind, event, stage): must be 0. */
  duplicates: number;
}

/** Counts over the calls given: a receiver de-duplicating on webhook-id sees `notifications`. */
export function deliveryFigures(calls: readonly ReceivedCall[]): DeliveryFigures {
  const byId = new Map<string, number>();
  const idsByMeaning = new Map<string, Set<string>>();
  for (const call of calls) {
    const n = classify(call);
    byId.set(n.webhookId, (byId.get(n.webhookId) ?? 0) + 1);
    const meaning = `${n.registrationId}|${n.kind}|${n.event}|${n.stage}`;
    idsByMeaning.set(meaning, (idsByMeaning.get(meaning) ?? new Set()).add(n.webhookId));
  }
  return {
    notifications: byId.size,
    requests: calls.length,
    redelivered: [...byId.values()].filter((count) => count > 1).length,
    duplicates: [...idsByMeaning.values()].reduce((sum, ids) => sum + ids.size - 1, 0),
  };
}

/** The first successful (2xx-answered) call of each webhook-id, in arrival order. */
export function delivered(calls: readonly ReceivedCall[]): Notification[] {
  const seen = new Set<string>();
  const out: Notification[] = [];
  for (const call of calls) {
    if (call.answeredStatus >= 300) continue;
    const n = classify(call);
    if (seen.has(n.webhookId)) continue;
    seen.add(n.webhookId);
    out.push(n);
  }
  return out;
}
