import type { AnyBulkWriteOperation, Db, Document } from 'mongodb';
import type { Logger } from '@stormhook/logger';
import type { Clock } from '../ports/clock.js';
import { RETENTION_RULES, type RetentionRule } from './retention-policy.js';

export interface RetentionSettings {
  /** Days per retention class; 0 keeps that class forever. */
  days: Record<RetentionRule['retention'], number>;
  intervalMs: number;
  /** Deletes per round trip. */
  batchSize?: number;
  /** Pause between two delete batches, so the delivery hot path keeps the database's single writer. */
  pauseMs?: number;
}

const DAY_MS = 86_400_000;

/**
 * Deletes what is older than its retention, periodically. Per collection it reads the expired ids in
 * ONE pass (a date filter scans on FerretDB, so one scan per run, never one per batch) and deletes
 * them by `_id` in unordered bulk writes of `batchSize` (each delete is an indexed `_id` lookup),
 * pausing between batches. Several instances may run it at once: deleting a deleted id is a no-op.
 */
export class RetentionJanitor {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly db: Db,
    private readonly settings: RetentionSettings,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly rules: readonly RetentionRule[] = RETENTION_RULES,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.runOnce()
        .then((deleted) => this.logger.info({ deleted }, 'retention: expired records deleted'))
        .catch((error: unknown) => this.logger.warn({ err: error }, 'retention run failed; will retry'))
        .finally(() => (this.running = undefined));
    }, this.settings.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass over every rule; the number deleted per collection. */
  async runOnce(): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    for (const rule of this.rules) {
      const days = this.settings.days[rule.retention];
      if (days <= 0) continue;
      deleted[rule.collection] = await this.trim(rule, new Date(this.clock.now().getTime() - days * DAY_MS));
    }
    return deleted;
  }

  private async trim(rule: RetentionRule, cutoff: Date): Promise<number> {
    const batchSize = this.settings.batchSize ?? 500;
    const pauseMs = this.settings.pauseMs ?? 20;
    const collection = this.db.collection<Document>(rule.collection);
    const cursor = collection.find({ [rule.field]: { $lt: cutoff } }, { projection: { _id: 1 }, batchSize: 1_000 });
    let batch: AnyBulkWriteOperation<Document>[] = [];
    let deleted = 0;
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return;
      const result = await collection.bulkWrite(batch, { ordered: false });
      deleted += result.deletedCount;
      batch = [];
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    };
    try {
      for await (const doc of cursor) {
        batch.push({ deleteOne: { filter: { _id: doc['_id'] } } });
        if (batch.length >= batchSize) await flush();
      }
      await flush();
    } finally {
      await cursor.close();
    }
    return deleted;
  }
}
