import type { notificationV1 } from '@stormhook/proto';
import type { CallBudget } from './call-budget.js';

export type WebhookConfig = notificationV1.WebhookEndpointConfig;

export type CreateWebhookOutcome =
  | { kind: 'created'; config: WebhookConfig }
  /** Another registration of the account stored one first (a race): compare with it instead. */
  | { kind: 'exists' }
  /** The notifier refused the configuration; the message names the field and unit. */
  | { kind: 'invalid'; field: string; message: string };

/**
 * The account's stored webhook, kept by the notifier (one per account). Configurations come back
 * with the password masked. An unreachable notifier throws DependencyUnavailableError.
 */
export interface WebhookStore {
  /** `budget`: the API caller's remaining time, which the call must fit in (see {@link CallBudget}). */
  get(accountId: string, budget?: CallBudget): Promise<WebhookConfig | undefined>;
  create(accountId: string, config: WebhookConfig, budget?: CallBudget): Promise<CreateWebhookOutcome>;
}
