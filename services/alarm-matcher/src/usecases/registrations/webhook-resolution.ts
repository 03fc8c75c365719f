import type { WebhookDraft } from '../../domain/draft.js';
import { fail, invalid, ok, unavailable, type Result } from '../../domain/errors.js';
import { decideWebhook } from '../../domain/webhook-rules.js';
import type { CallBudget } from '../../ports/call-budget.js';
import { DependencyUnavailableError } from '../../ports/dependency.js';
import type { WebhookConfig, WebhookStore } from '../../ports/webhook-store.js';

export interface WebhookView {
  accountId: string;
  /** Masked; absent when the notifier could not be asked (reads only). */
  config?: WebhookConfig;
}

const NOTIFIER_DOWN = 'The webhook service is unavailable; try again shortly';

/**
 * Applies the webhook rules of contract section 3 for a registration of `ownerAccountId`, storing
 * the webhook with the notifier on the account's first registration. The notifier calls fit in
 * `budget`, the API caller's remaining time.
 */
export async function resolveWebhook(
  request: WebhookDraft,
  ownerAccountId: string,
  store: WebhookStore,
  budget?: CallBudget,
): Promise<Result<{ view: WebhookView; warnings: string[] }>> {
  try {
    const stored = await store.get(ownerAccountId, budget);
    const decision = decideWebhook(request, ownerAccountId, stored);
    if (!decision.ok) return decision;
    if (decision.value.action === 'reuse') {
      return ok({ view: { accountId: ownerAccountId, ...(stored ? { config: stored } : {}) }, warnings: decision.value.warnings });
    }
    const created = await store.create(ownerAccountId, decision.value.config, budget);
    if (created.kind === 'created') return ok({ view: { accountId: ownerAccountId, config: created.config }, warnings: [] });
    if (created.kind === 'invalid') return fail(invalid(created.field, created.message));
    // Another registration of the account stored a webhook a moment ago: this one must equal it.
    const now = await store.get(ownerAccountId, budget);
    const again = decideWebhook(request, ownerAccountId, now);
    if (!again.ok) return again;
    return ok({ view: { accountId: ownerAccountId, ...(now ? { config: now } : {}) }, warnings: again.value.action === 'reuse' ? again.value.warnings : [] });
  } catch (error) {
    if (error instanceof DependencyUnavailableError) return fail(unavailable('notifier', NOTIFIER_DOWN));
    throw error;
  }
}

/**
 * The masked webhook of each account, for read answers. The notifier being down does not fail a
 * read: the registration is shown with its account id only, and a warning says why.
 */
export async function webhookViews(accountIds: Iterable<string>, store: WebhookStore): Promise<Map<string, WebhookView & { warning?: string }>> {
  const views = new Map<string, WebhookView & { warning?: string }>();
  await Promise.all(
    [...new Set(accountIds)].map(async (accountId) => {
      try {
        const config = await store.get(accountId);
        views.set(accountId, { accountId, ...(config ? { config } : {}) });
      } catch (error) {
        if (!(error instanceof DependencyUnavailableError)) throw error;
        views.set(accountId, { accountId, warning: 'the stored webhook could not be read right now (webhook service unavailable)' });
      }
    }),
  );
  return views;
}
