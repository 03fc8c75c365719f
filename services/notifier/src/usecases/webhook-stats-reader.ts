import type { WebhookStatsRecorder } from '../delivery/webhook-stats-recorder.js';
import { mergeStats, WEEK_MS, type AccountStats } from '../domain/webhook-stats.js';
import type { WebhookStatsStore } from '../ports/webhook-stats-store.js';

export interface WebhookStatsReaderDeps {
  recorder: Pick<WebhookStatsRecorder, 'current' | 'options'>;
  store: WebhookStatsStore;
  /** How long the list of writers is reused: it changes only when a notifier process starts. */
  writersCacheMs: number;
}

/**
 * An account's statistics summed over every notifier process: this one's from memory, the others' as
 * they last wrote them (one `_id` lookup per writer). Nothing reads the attempt log, so the cost does
 * not grow with it.
 */
export class WebhookStatsReader {
  private writerList: { ids: string[]; at: number } | undefined;

  constructor(private readonly deps: WebhookStatsReaderDeps) {}

  private async otherWriters(now: number): Promise<string[]> {
    if (!this.writerList || now - this.writerList.at > this.deps.writersCacheMs) {
      this.writerList = { ids: await this.deps.store.writers(new Date(now - WEEK_MS)), at: now };
    }
    const own = this.deps.recorder.options.writerId;
    return this.writerList.ids.filter((id) => id !== own);
  }

  async merged(accountId: string, now: number): Promise<AccountStats> {
    const others = await this.deps.store.load(accountId, await this.otherWriters(now));
    const own = this.deps.recorder.current(accountId);
    return mergeStats(accountId, own ? [own, ...others] : others, now);
  }
}
