import { createHmac } from 'node:crypto';
import { signingKeyObject } from './signing-secret.js';

/** Header names of the Standard Webhooks specification (v1). */
export const STANDARD_WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

/** `v1,` + base64 HMAC-SHA256 over `${id}.${timestamp}.${body}` with the decoded secret. */
export function signStandardWebhook(secret: string, id: string, timestampSeconds: number, body: string | Buffer): string {
  const mac = createHmac('sha256', signingKeyObject(secret));
  mac.update(`${id}.${timestampSeconds}.`, 'utf8');
  mac.update(body);
  return `v1,${mac.digest('base64')}`;
}

/**
 * The three headers of one attempt. Every attempt of a delivery carries the same id (receivers
 * de-duplicate on it) and a fresh timestamp (receivers reject stale ones). During a secret rotation
 * `secrets` holds the new and the previous secret, and the header carries both signatures,
 * space-separated, so receivers on either secret verify.
 */
export function standardWebhookHeaders(secrets: readonly string[], id: string, timestampSeconds: number, body: string | Buffer): Record<string, string> {
  return {
    [STANDARD_WEBHOOK_HEADERS.id]: id,
    [STANDARD_WEBHOOK_HEADERS.timestamp]: String(timestampSeconds),
    [STANDARD_WEBHOOK_HEADERS.signature]: secrets.map((secret) => signStandardWebhook(secret, id, timestampSeconds, body)).join(' '),
  };
}
