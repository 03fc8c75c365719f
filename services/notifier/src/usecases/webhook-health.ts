import { fail, notFound, ok, type Result } from '../domain/notifier-error.js';
import { healthFigures, type HealthFigures } from '../domain/webhook-stats.js';
import type { Clock } from '../ports/clock.js';
import type { EndpointRepository } from '../ports/endpoint-repository.js';
import type { WebhookStatsReader } from './webhook-stats-reader.js';
import { NO_ENDPOINT } from './endpoint-usecases.js';

export type WebhookState = 'ENABLED' | 'FAILING' | 'DISABLED';

export interface WebhookHealthView {
  state: WebhookState;
  /** Start of the current run of failures (FAILING, or DISABLED after failing); null otherwise. */
  failingSince: Date | null;
  disabledReason: string | null;
  disabledAt: Date | null;
  figures: HealthFigures;
  /** When the figures were computed; other instances' share is at most one flush interval older. */
  asOf: Date;
}

export interface WebhookHealthDeps {
  endpoints: Pick<EndpointRepository, 'findByAccount'>;
  stats: WebhookStatsReader;
  clock: Clock;
}

/**
 * The health of an account's webhook: its state from the endpoint, its figures from the statistics
 * every notifier instance keeps (WebhookStatsReader), never from the attempt log, so the answer costs
 * the same with a million attempts stored as with none.
 */
export class WebhookHealth {
  constructor(private readonly deps: WebhookHealthDeps) {}

  async get(accountId: string): Promise<Result<WebhookHealthView>> {
    const endpoint = await this.deps.endpoints.findByAccount(accountId);
    if (!endpoint) return fail(notFound(NO_ENDPOINT));
    const now = this.deps.clock.now();
    const figures = healthFigures(await this.deps.stats.merged(accountId, now.getTime()), now.getTime());
    const state: WebhookState = endpoint.status === 'disabled' ? 'DISABLED' : endpoint.failingSince ? 'FAILING' : 'ENABLED';
    return ok({
      state,
      failingSince: endpoint.failingSince,
      disabledReason: endpoint.disabledReason,
      disabledAt: endpoint.disabledAt,
      figures,
      asOf: now,
    });
  }
}
