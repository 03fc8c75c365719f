import type { notificationV1 } from '@stormhook/proto';
import type { WebhookDraft } from './draft.js';
import { conflict, fail, ok, precondition, type Result } from './errors.js';

type WebhookConfig = notificationV1.WebhookEndpointConfig;

/** Where the caller is told to change a stored webhook (contract section 3, rule 4). */
export const WEBHOOK_UPDATE_OPERATION = 'PUT /v1/alarms/webhooks/update';
const MASK = '******';

/** What to do with the account's webhook for one registration. */
export type WebhookDecision = { action: 'reuse'; warnings: string[] } | { action: 'create'; config: WebhookConfig };

function normalUrl(raw: string): string {
  try {
    return new URL(raw.trim()).href;
  } catch {
    return raw.trim();
  }
}

function authType(config: WebhookConfig): string {
  const type = config.authentication?.type ?? 'WEBHOOK_AUTH_TYPE_UNSPECIFIED';
  return type === 'WEBHOOK_AUTH_TYPE_UNSPECIFIED' ? 'WEBHOOK_AUTH_TYPE_NONE' : type;
}

function headers(config: WebhookConfig): string {
  const entries = Object.entries(config.requestHeaders ?? {}).map(([name, value]) => [name.toLowerCase(), value] as const);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(entries);
}

/**
 * The public names of the fields where a requested full webhook differs from the stored one. Fields
 * the notifier defaults (method POST, JSON body) compare with their defaults; delivery policy values
 * are compared only when sent: proto3 cannot tell 0 from absent, so 0 counts as "not sent" (timeout
 * and retryDelay have minimums above 0; a maxRetries of 0 against a stored 3 is reused, not refused). The password is never compared: the notifier keeps it encrypted and shows it masked.
 */
export function webhookDifferences(requested: WebhookConfig, stored: WebhookConfig): string[] {
  const differences: string[] = [];
  if (normalUrl(requested.url) !== normalUrl(stored.url)) differences.push('url');
  if ((requested.httpMethod.trim() || 'POST').toUpperCase() !== (stored.httpMethod.trim() || 'POST').toUpperCase()) differences.push('httpMethod');
  if ((requested.contentType.trim() || 'application/json').toLowerCase() !== (stored.contentType.trim() || 'application/json').toLowerCase()) {
    differences.push('contentType');
  }
  if (authType(requested) !== authType(stored)) differences.push('authentication.type');
  if ((requested.authentication?.username ?? '') !== (stored.authentication?.username ?? '')) differences.push('authentication.username');
  if (headers(requested) !== headers(stored)) differences.push('requestHeaders');
  const wanted = requested.deliveryPolicy;
  const have = stored.deliveryPolicy;
  if (wanted) {
    if (wanted.timeoutMs !== 0 && wanted.timeoutMs !== have?.timeoutMs) differences.push('deliveryPolicy.timeout');
    if (wanted.maxRetries !== 0 && wanted.maxRetries !== have?.maxRetries) differences.push('deliveryPolicy.maxRetries');
    if (wanted.retryDelaySeconds !== 0 && wanted.retryDelaySeconds !== have?.retryDelaySeconds) differences.push('deliveryPolicy.retryDelay');
  }
  return differences;
}

/**
 * The webhook lifecycle rules of contract section 3 for a registration owned by `ownerAccountId`:
 * 1. the first registration of an account carries the complete webhook without accountId and it is
 *    stored; 2. later ones carry only webhook.accountId and reuse the stored one; 3. an accountId
 *    with no stored webhook fails, as does another account's id; 4. a complete webhook that differs
 *    from the stored one is refused, pointing to the update operation.
 */
export function decideWebhook(request: WebhookDraft, ownerAccountId: string, stored: WebhookConfig | undefined): Result<WebhookDecision> {
  if (request.accountId !== '' && request.accountId.toLowerCase() !== ownerAccountId.toLowerCase()) {
    return fail(
      precondition(
        'WEBHOOK_ACCOUNT_MISMATCH',
        `webhook.accountId ${request.accountId} is not the account of this registration; send your own account id (accountId of GET /v1/users/me), or the complete webhook without accountId on your first registration`,
      ),
    );
  }
  const full = request.config && request.config.url.trim() !== '' ? request.config : undefined;
  if (!stored) {
    if (full && request.accountId === '') return ok({ action: 'create', config: full });
    return fail(
      precondition(
        'WEBHOOK_NOT_FOUND',
        `No webhook is stored for account ${ownerAccountId}; send the complete webhook (url, httpMethod, contentType, authentication, requestHeaders, deliveryPolicy) without accountId on the first registration`,
      ),
    );
  }
  const warnings: string[] = [];
  if (full) {
    const differences = webhookDifferences(full, stored);
    if (differences.length > 0) {
      return fail(
        conflict(
          'WEBHOOK_DIFFERS',
          `webhook differs from the webhook stored for account ${ownerAccountId} (${differences.join(', ')}); one webhook is stored per account: change it with ${WEBHOOK_UPDATE_OPERATION}, or send only webhook.accountId to reuse it`,
        ),
      );
    }
    const password = full.authentication?.password ?? '';
    if (password !== '' && password !== MASK) {
      warnings.push(
        `webhook.authentication.password is stored encrypted and was not compared; the stored webhook is used unchanged (change it with ${WEBHOOK_UPDATE_OPERATION})`,
      );
    }
  }
  return ok({ action: 'reuse', warnings });
}
