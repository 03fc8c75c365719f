import { MASKED_PASSWORD, type PublicWebhook, type PublicWebhookInput } from './webhook-mapping.js';

/**
 * What another account sees of a webhook (issue 23 item 4). POWER_USER and above read other
 * accounts' registrations, and ADMIN other accounts' webhooks; the webhook's URL path and query and
 * its header values are where receivers keep their own secrets (tokens in the path, `X-Api-Key`
 * headers), so only the account's own users see them. The scheme and host stay readable: they say
 * which service is called, which is what support needs, and are no credential.
 */
export const MASKED_VALUE = MASKED_PASSWORD;

/** The URL with everything after the host masked; an unparsable URL is masked whole. */
export function maskedUrl(url: string): string {
  if (url === '') return url;
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}/${MASKED_VALUE}`;
  } catch {
    return MASKED_VALUE;
  }
}

/** `webhook` as `viewerAccountId` may see it: in full for the owning account, masked for anyone else. */
export function webhookForViewer(webhook: PublicWebhook, viewerAccountId: string | undefined): PublicWebhook {
  if (viewerAccountId && viewerAccountId === webhook.accountId) return webhook;
  const { authentication } = webhook;
  return {
    ...webhook,
    url: maskedUrl(webhook.url),
    requestHeaders: Object.fromEntries(Object.keys(webhook.requestHeaders).map((name) => [name, MASKED_VALUE])),
    ...(authentication ? { authentication: { ...authentication, ...(authentication.username ? { username: MASKED_VALUE } : {}) } } : {}),
  };
}

/**
 * Whether a change sent by another account carries values its read showed masked: stored as sent,
 * they would replace the customer's real URL and header values with the mask. Names the field.
 */
export function maskedFieldOf(webhook: PublicWebhookInput): string | undefined {
  if (webhook.url?.includes(MASKED_VALUE)) return 'url';
  const header = Object.entries(webhook.requestHeaders ?? {}).find(([, value]) => value === MASKED_VALUE);
  if (header) return `requestHeaders.${header[0]}`;
  if (webhook.authentication?.username === MASKED_VALUE) return 'authentication.username';
  return undefined;
}
