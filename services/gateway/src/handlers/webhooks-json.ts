import type { notificationV1 } from '@stormhook/proto';
import { toPublicWebhook, type PublicWebhook } from './webhook-mapping.js';
import { webhookForViewer } from './webhook-masking.js';

const isoOrNull = (epochMs: number): string | null => (epochMs > 0 ? new Date(epochMs).toISOString() : null);

export interface StoredWebhookJson extends PublicWebhook {
  status: 'ENABLED' | 'DISABLED';
  disabledReason: string | null;
  disabledAt: string | null;
  failingSince: string | null;
  createdAt: string | null;
  updatedAt: string | null;
}

/**
 * GET /v1/alarms/webhooks: the 2.2 shape (no type, password masked) plus whether and why deliveries
 * stop; URL path and header values masked too when the caller (an ADMIN) is not of the account.
 */
export function storedWebhookJson(endpoint: notificationV1.WebhookEndpoint | null | undefined, viewerAccountId: string | undefined): StoredWebhookJson {
  if (!endpoint) throw new Error('the notifier answered without an endpoint');
  return {
    ...webhookForViewer(toPublicWebhook(endpoint), viewerAccountId),
    status: endpoint.status === 'WEBHOOK_ENDPOINT_STATUS_DISABLED' ? 'DISABLED' : 'ENABLED',
    disabledReason: endpoint.disabledReason || null,
    disabledAt: isoOrNull(endpoint.disabledAtEpochMs),
    failingSince: isoOrNull(endpoint.failingSinceEpochMs),
    createdAt: isoOrNull(endpoint.createdAtEpochMs),
    updatedAt: isoOrNull(endpoint.updatedAtEpochMs),
  };
}

export function signingSecretsJson(secrets: notificationV1.SigningSecretResponse): Record<string, unknown> {
  return {
    signingSecret: secrets.signingSecret,
    previousSigningSecret: secrets.previousSigningSecret || null,
    previousSecretExpiresAt: isoOrNull(secrets.previousSecretExpiresAtEpochMs),
  };
}
