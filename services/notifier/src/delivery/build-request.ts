import { EVENT_TYPE_HEADER, RECOVERED_HEADER, recoveredPayload } from '@stormhook/webhooks';
import { MASK } from '../domain/authentication.js';
import { payloadEventType, type Delivery } from '../domain/delivery.js';
import type { WebhookEndpoint } from '../domain/endpoint.js';
import { activeSigningSecrets } from '../domain/endpoint.js';
import { hmacHeaders } from '../domain/hmac-auth.js';
import { standardWebhookHeaders } from '../domain/standard-webhooks.js';
import type { OutboundRequest } from '../ports/http-sender.js';

export interface BuiltRequest {
  request: OutboundRequest;
  /** The URL for the attempt log: an API key in the query is masked. */
  loggedUrl: string;
}

/** The body bytes for the endpoint's content type; signatures are computed over exactly these. */
export function encodeBody(payload: string, contentType: WebhookEndpoint['contentType']): string {
  return contentType === 'application/x-www-form-urlencoded' ? `payload=${encodeURIComponent(payload)}` : payload;
}

/**
 * The HTTP request of one attempt: the endpoint's method and content type, its custom headers, then
 * the headers we own (they win): Standard Webhooks id/timestamp/signature and the authentication. A
 * recovery attempt (`recovery`: its job id) sends the payload with `recovered: true` and says so in a header.
 */
export function buildRequest(endpoint: WebhookEndpoint, delivery: Delivery, now: Date, recovery?: string): BuiltRequest {
  const url = new URL(endpoint.url);
  const body = encodeBody(recovery ? recoveredPayload(delivery.payload) : delivery.payload, endpoint.contentType);
  const auth = endpoint.authentication;
  const headers: Record<string, string> = { ...endpoint.requestHeaders, 'content-type': endpoint.contentType };
  Object.assign(headers, standardWebhookHeaders(activeSigningSecrets(endpoint, now), delivery.id, Math.floor(now.getTime() / 1000), body));
  // The payload's `type` as a header, so a receiver can route before parsing the body: read from
  // that body, so the two always agree (a small JSON parse per attempt, next to an HTTP call).
  const eventType = payloadEventType(delivery.payload);
  if (eventType) headers[EVENT_TYPE_HEADER] = eventType;
  if (recovery) headers[RECOVERED_HEADER] = recovery;

  let loggedUrl = url.toString();
  switch (auth.type) {
    case 'NONE':
      break;
    case 'BASIC':
      headers['authorization'] = `Basic ${Buffer.from(`${auth.username}:${auth.password}`, 'utf8').toString('base64')}`;
      break;
    case 'BEARER':
      headers['authorization'] = `Bearer ${auth.password}`;
      break;
    case 'API_KEY_HEADER':
      headers['X-API-Key'] = auth.password;
      break;
    case 'API_KEY_QUERY': {
      const masked = new URL(url);
      masked.searchParams.set('apiKey', MASK);
      loggedUrl = masked.toString();
      url.searchParams.set('apiKey', auth.password);
      break;
    }
    case 'HMAC':
      Object.assign(headers, hmacHeaders({ clientId: auth.username, key: auth.password, method: endpoint.httpMethod, url, body, nowMs: now.getTime() }));
      break;
  }
  return {
    request: { method: endpoint.httpMethod, url: url.toString(), headers, body, timeoutMs: endpoint.deliveryPolicy.timeoutMs },
    loggedUrl,
  };
}
