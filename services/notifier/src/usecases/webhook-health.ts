import type { WebhookStatsRecorder } from '../delivery/webhook-stats-recorder.js';
import { fail, notFound, ok, type Result } from '../domain/notifier-error.js';
import { healthFigures, mergeStats, WEEK_MS, type HealthFigures } from '../domain/webhook-stats.js';
import type { Clock } from '../ports/clock.js';
import type { EndpointRepository } from '../ports/endpoint-repository.js';
import type { WebhookStatsStore } from '../ports/webhook-stats-store.js';
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
  recorder: WebhookStatsRecorder;
  store: WebhookStatsStore;
  clock: Clock;
  /** How long the list of writers is reused: it changes only when a notifier process starts. */
  writersCacheMs: number;
}

/**
 * The health of an account's webhook: its state from the endpoint, its figures from the statistics
 * every notifier instance keeps (this one's from memory, the others' as they last wrote them: one
 * `_id` lookup per writer). Nothing reads the attempt log, so the answer costs the same with a million
 * attempts stored as with none.
 */
export class WebhookHealth {
  private writerList: { ids: string[]; at: number } | undefined;

  constructor(private readonly deps: WebhookHealthDeps) {}

  private async otherWriters(now: number): Promise<string[]> {
    if (!this.writerList || now - this.writerList.at > this.deps.writersCacheMs) {
      const ids = await this.deps.store.writers(new Date(now - WEEK_MS));
      this.writerList = { ids, at: now };
    }
    const own = this.deps.recorder.options.writerId;
    return this.writerList.ids.filter((id) => id !== own);
  }

  async get(accountId: string): Promise<Result<WebhookHealthView>> {
    const endpoint = await this.deps.endpoints.findByAccount(accountId);
    if (!endpoint) return fail(notFound(NO_ENDPOINT));
    const now = this.deps.clock.now();
    const others = await this.deps.store.load(accountId, await this.otherWriters(now.getTime()));
    const own = this.deps.recorder.current(accountId);
    const figures = healthFigures(mergeStats(accountId, own ? [own, ...others] : others, now.getTime()), now.getTime());
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
