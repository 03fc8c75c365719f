/** Limits of the queue of hashes waiting for memory: beyond them a hash is refused, not queued. */
export interface HashQueueLimits {
  /** Hashes that may wait at once; default 64 (about 10 s of Argon2id work on one core). */
  maxWaiting: number;
  /** How long a hash may wait for memory before it gives up; default 5 s (a login's caller waits no longer). */
  maxWaitMs: number;
}

export const DEFAULT_HASH_QUEUE: HashQueueLimits = { maxWaiting: 64, maxWaitMs: 5_000 };

/** A hash refused because the queue is full or its wait ran out: the service is busy, the caller may retry. */
export class HashQueueBusy extends Error {
  constructor(readonly reason: 'queue-full' | 'wait-expired') {
    super(`password hashing is busy (${reason})`);
    this.name = 'HashQueueBusy';
  }
}

/**
 * Bounds the memory that password hashes in flight may hold. Each hash reserves what its algorithm
 * allocates (Argon2id: its memory cost; scrypt: 128·N·r bytes) and waits, first come first served,
 * until the reservation fits. Without it a burst of logins allocates one hash's memory per request
 * and a 512 MiB pod is killed (issue 17 item 4). A hash larger than the whole budget still runs,
 * alone, so an old record can always be verified.
 */
export class HashMemoryBudget {
  private inUse = 0;
  private running = 0;
  private readonly waiting: Array<{ bytes: number; start: () => void }> = [];

  /**
   * Waiting is bounded too: an unbounded queue turns a login flood into minutes of latency for
   * everyone and unbounded memory for the waiting requests, so past `limits` a hash is refused at once.
   */
  constructor(
    readonly budgetBytes: number,
    private readonly limits: HashQueueLimits = DEFAULT_HASH_QUEUE,
  ) {
    if (!Number.isFinite(budgetBytes) || budgetBytes <= 0) throw new Error(`hash memory budget must be positive, got ${budgetBytes}`);
  }

  /** Hashes running now and waiting for memory (for tests and metrics). */
  get state(): { running: number; waiting: number; bytesInUse: number } {
    return { running: this.running, waiting: this.waiting.length, bytesInUse: this.inUse };
  }

  async run<T>(bytes: number, work: () => Promise<T>): Promise<T> {
    const reserved = Math.min(Math.max(0, bytes), this.budgetBytes);
    await this.acquire(reserved);
    try {
      return await work();
    } finally {
      this.release(reserved);
    }
  }

  private acquire(bytes: number): Promise<void> {
    // Strict FIFO: a large scrypt verify is not starved by a stream of small Argon2id hashes.
    if (this.waiting.length === 0 && this.inUse + bytes <= this.budgetBytes) {
      this.take(bytes);
      return Promise.resolve();
    }
    if (this.waiting.length >= this.limits.maxWaiting) return Promise.reject(new HashQueueBusy('queue-full'));
    return new Promise((resolve, reject) => {
      const entry = {
        bytes,
        start: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(entry);
        if (at >= 0) this.waiting.splice(at, 1);
        // A large hash that gave up at the head may have held back smaller ones that fit now.
        this.drain();
        reject(new HashQueueBusy('wait-expired'));
      }, this.limits.maxWaitMs);
      this.waiting.push(entry);
    });
  }

  private take(bytes: number): void {
    this.inUse += bytes;
    this.running += 1;
  }

  private release(bytes: number): void {
    this.inUse -= bytes;
    this.running -= 1;
    this.drain();
  }

  private drain(): void {
    while (this.waiting.length > 0) {
      const next = this.waiting[0]!;
      if (this.inUse + next.bytes > this.budgetBytes) break;
      this.waiting.shift();
      this.take(next.bytes);
      next.start();
    }
  }
}
