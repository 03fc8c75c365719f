/**
 * Limits how many writes run against the database at once. SQLite (under the embedded FerretDB) has
 * one writer at a time and makes the others wait up to its busy timeout, so hundreds of concurrent
 * updates turn into SQLITE_BUSY errors and multi-second stalls; queueing them here keeps each write
 * short. On MongoDB a higher limit (config) lets writes overlap.
 */
export class WriteGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit = 1) {}

  async run<T>(write: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await write();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}
