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

  constructor(readonly budgetBytes: number) {
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
    return new Promise((resolve) => this.waiting.push({ bytes, start: resolve }));
  }

  private take(bytes: number): void {
    this.inUse += bytes;
    this.running += 1;
  }

  private release(bytes: number): void {
    this.inUse -= bytes;
    this.running -= 1;
    while (this.waiting.length > 0) {
      const next = this.waiting[0]!;
      if (this.inUse + next.bytes > this.budgetBytes) break;
      this.waiting.shift();
      this.take(next.bytes);
      next.start();
    }
  }
}
