import type { Authentication } from './authentication.js';
import type { DeliveryPolicy } from './delivery-policy.js';

export const HTTP_METHODS = ['POST', 'PUT', 'PATCH'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * Body encodings. JSON sends the payload as is. Form encoding sends `payload=<url-encoded JSON>`, the
 * shape GitHub uses for its form-encoded webhooks, for receivers that only parse forms. The
 * signatures cover the exact bytes sent in both cases.
 */
export const CONTENT_TYPES = ['application/json', 'application/x-www-form-urlencoded'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/** The customer-editable part (public `webhook` object), credentials in clear. */
export interface EndpointConfig {
  url: string;
  httpMethod: HttpMethod;
  contentType: ContentType;
  authentication: Authentication;
  requestHeaders: Record<string, string>;
  deliveryPolicy: DeliveryPolicy;
}

export type EndpointStatus = 'enabled' | 'disabled';

/** One account's webhook endpoint, secrets in clear (only ever in memory). */
export interface WebhookEndpoint extends EndpointConfig {
  id: string;
  accountId: string;
  status: EndpointStatus;
  disabledReason: string | null;
  disabledAt: Date | null;
  /** Start of the current unbroken run of failed attempts; null after a success. */
  failingSince: Date | null;
  signingSecret: string;
  /** The secret before the last rotation, still signing until `previousSecretExpiresAt`. */
  previousSigningSecret: string | null;
  previousSecretExpiresAt: Date | null;
  /** Where to say that the endpoint was disabled; null when nobody gave one. */
  ownerEmail: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A newly stored endpoint: enabled, never failed, one signing secret and no previous one. The one
 * place that says what a new endpoint's state is, for the create use case and for test fixtures.
 */
export function newWebhookEndpoint(
  config: EndpointConfig,
  stored: { id: string; accountId: string; signingSecret: string; ownerEmail?: string | null; now: Date },
): WebhookEndpoint {
  return {
    ...config,
    id: stored.id,
    accountId: stored.accountId,
    status: 'enabled',
    disabledReason: null,
    disabledAt: null,
    failingSince: null,
    signingSecret: stored.signingSecret,
    previousSigningSecret: null,
    previousSecretExpiresAt: null,
    ownerEmail: stored.ownerEmail ?? null,
    createdAt: stored.now,
    updatedAt: stored.now,
  };
}

/** The secrets that sign at `now`: the current one, plus the previous one inside its rotation window. */
export function activeSigningSecrets(endpoint: WebhookEndpoint, now: Date): string[] {
  const secrets = [endpoint.signingSecret];
  if (endpoint.previousSigningSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
    secrets.push(endpoint.previousSigningSecret);
  }
  return secrets;
}
