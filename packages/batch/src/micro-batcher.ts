export interface MicroBatcherOptions<T, R> {
  /** A batch is flushed as soon as it holds this many items. */
  maxItems: number;
  /**
   * ...or this long after its first item arrived, whichever comes first. Bounds the latency a
   * lone item pays at low rates; at high rates batches fill before the timer fires.
   */
  maxDelayMs: number;
  /**
   * Does the work of one batch: one database round trip, one publish. Returns one result per item,
   * in the items' order. A throw fails every item of the batch (their callers retry as they would
   * a failed single write); later batches are not affected.
   */
  flush(items: readonly T[]): Promise<readonly R[]>;
  /** Batches flushed at once; items arriving meanwhile gather into the next batch. Default 1. */
  maxConcurrentFlushes?: number;
}

interface Pending<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Gathers single operations of concurrent callers into bounded batches. The hot paths of the
 * pipeline handle many records at once (several partitions, several keys per partition); each
 * record still awaits its own write, so commit-after-work keeps its meaning, but the database sees
 * one `insertMany` per batch instead of one round trip per record.
 */
export class MicroBatcher<T, R> {
  private queue: Array<Pending<T, R>> = [];
  private timer: NodeJS.Timeout | undefined;
  /** The oldest queued item has waited maxDelayMs: a partial batch may go as soon as a slot is free. */
  private due = false;
  private flushing = 0;
  private readonly idle = new Set<() => void>();
  private readonly maxConcurrent: number;

  constructor(private readonly opts: MicroBatcherOptions<T, R>) {
    if (!Number.isInteger(opts.maxItems) || opts.maxItems < 1) throw new Error('maxItems must be a positive integer');
    if (!(opts.maxDelayMs >= 0)) throw new Error('maxDelayMs must be zero or more');
    this.maxConcurrent = opts.maxConcurrentFlushes ?? 1;
    if (!Number.isInteger(this.maxConcurrent) || this.maxConcurrent < 1) throw new Error('maxConcurrentFlushes must be a positive integer');
  }

  /** Items waiting for a flush (not counting those being flushed). */
  get waiting(): number {
    return this.queue.length;
  }

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.kick();
    });
  }

  /** Flushes everything queued now and resolves when every flush started so far has ended. */
  async drain(): Promise<void> {
    while (this.flushing > 0 || this.queue.length > 0) {
      this.due = true;
      this.kick();
      await new Promise<void>((resolve) => this.idle.add(resolve));
    }
  }

  private onTimer(): void {
    this.timer = undefined;
    this.due = true;
    this.kick();
  }

  /** Starts flushes while there is room: full batches always, a partial one once it is due. */
  private kick(): void {
    while (this.flushing < this.maxConcurrent && this.queue.length > 0) {
      if (this.queue.length < this.opts.maxItems && !this.due) break;
      void this.run(this.queue.splice(0, this.opts.maxItems));
    }
    if (this.queue.length === 0) {
      this.due = false;
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
    } else if (!this.due) {
      this.timer ??= setTimeout(() => this.onTimer(), this.opts.maxDelayMs);
    }
  }

  private async run(batch: Array<Pending<T, R>>): Promise<void> {
    this.flushing += 1;
    try {
      const results = await this.opts.flush(batch.map((p) => p.item));
      if (results.length !== batch.length) throw new Error(`flush returned ${results.length} results for ${batch.length} items`);
      batch.forEach((p, i) => p.resolve(results[i] as R));
    } catch (error) {
      for (const p of batch) p.reject(error);
    } finally {
      this.flushing -= 1;
      this.kick();
      for (const wake of [...this.idle]) {
        this.idle.delete(wake);
        wake();
      }
    }
  }
}
