import type { Collection, Document, OptionalUnlessRequiredId } from 'mongodb';
import { isDuplicateKeyError } from '@stormhook/mongo';
import { WriteGate } from './write-gate.js';

interface Pending<T> {
  doc: T;
  resolve(result: 'inserted' | 'duplicate'): void;
  reject(error: unknown): void;
}

interface WriteErrorLike {
  index?: number;
  code?: number;
  errmsg?: string;
}

/**
 * Group commit for inserts: callers that arrive while a write is in flight are written together in
 * the next insertMany. On the SQLite-backed FerretDB every write command is a transaction with an
 * fsync, so one transaction for many documents is what makes acceptance keep up with Kafka; on
 * MongoDB it saves round trips. Each caller still learns its own outcome (inserted or duplicate).
 */
export class InsertBatcher<T extends Document> {
  private queue: Pending<T>[] = [];
  private flushing = false;

  constructor(
    private readonly collection: Collection<T>,
    private readonly gate: WriteGate = new WriteGate(1),
    private readonly maxBatch = 500,
  ) {}

  insert(doc: T): Promise<'inserted' | 'duplicate'> {
    return new Promise((resolve, reject) => {
      this.queue.push({ doc, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        await this.write(batch);
      }
    } finally {
      this.flushing = false;
    }
  }

  private async write(batch: Pending<T>[]): Promise<void> {
    try {
      await this.gate.run(() => this.collection.insertMany(batch.map((p) => p.doc as OptionalUnlessRequiredId<T>), { ordered: false }));
      for (const p of batch) p.resolve('inserted');
    } catch (error) {
      const writeErrors = (error as { writeErrors?: WriteErrorLike[] | WriteErrorLike }).writeErrors;
      const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
      if (list.length === 0) {
        if (batch.length === 1 && isDuplicateKeyError(error)) return batch[0]?.resolve('duplicate');
        for (const p of batch) p.reject(error);
        return;
      }
      const failed = new Map(list.map((w) => [w.index ?? -1, w]));
      batch.forEach((p, index) => {
        const w = failed.get(index);
        if (!w) p.resolve('inserted');
        else if (isDuplicateKeyError(w)) p.resolve('duplicate');
        else p.reject(Object.assign(new Error(w.errmsg ?? 'insert failed'), { code: w.code }));
      });
    }
  }
}
