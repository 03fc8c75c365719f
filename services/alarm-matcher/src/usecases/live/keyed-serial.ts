/**
 * Runs work for one key after the work before it for that key has ended (whatever its outcome),
 * and work for different keys at once. The consumer keeps Kafka's order per message key, but two
 * revisions of one storm may travel under different area keys (the storm moved): without this
 * they could read and write the event's stored states at the same time.
 */
export class KeyedSerial {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(work, work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
