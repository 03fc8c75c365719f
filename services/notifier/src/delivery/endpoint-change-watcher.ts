import type { Logger } from '@stormhook/logger';
import type { EndpointChangeLog } from '../ports/endpoint-change-log.js';
import type { EndpointCache } from './endpoint-cache.js';

export interface EndpointChangeWatcherOptions {
  /** How often the log is looked at when nothing new was found (how late another instance's change arrives here). */
  intervalMs: number;
  /** After this long without a new change, the head is read once to notice a number that will never come. */
  headCheckMs: number;
}

/**
 * Follows the endpoint change log so this instance's endpoint cache learns of changes made on other
 * instances within about `intervalMs`: one `_id` read a period when nothing changed, instead of one
 * read per cached endpoint and refresh. A change is a mark on the cached copy (read again before it
 * is served next), never a read here.
 */
export class EndpointChangeWatcher {
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private lastProgress = Date.now();
  private started = false;

  constructor(
    private readonly deps: { log: EndpointChangeLog; cache: Pick<EndpointCache, 'changed' | 'expireAll'>; logger: Logger },
    private readonly options: EndpointChangeWatcherOptions,
  ) {}

  /** Starts after the changes recorded so far: the cache is empty at start, so it has nothing older to hear of. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    try {
      this.next = (await this.deps.log.head()) + 1;
    } catch (error) {
      this.next = 0; // found at the first poll that can read the head
      this.deps.logger.warn({ err: error }, 'endpoint change log not read at start; trying again');
    }
    this.schedule();
  }

  stop(): Promise<void> {
    this.started = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    return this.running ?? Promise.resolve();
  }

  /** Reads every change recorded since the last look; answers how many it found. */
  async poll(): Promise<number> {
    const { log, cache } = this.deps;
    if (this.next === 0) {
      this.next = (await log.head()) + 1;
      cache.expireAll(); // changes made while the head could not be read
    }
    let found = 0;
    for (let change = await log.read(this.next); change; change = await log.read(this.next)) {
      cache.changed(change.endpointId, change.accountId);
      this.next = change.seq + 1;
      found++;
    }
    if (found > 0) this.lastProgress = Date.now();
    else if (Date.now() - this.lastProgress >= this.options.headCheckMs) {
      this.lastProgress = Date.now();
      // Numbers are taken by unique inserts in order, so a missing one below the head never comes:
      // the janitor trimmed it while this instance was away. Start after the head, reading everything again.
      const head = await log.head();
      if (head >= this.next && !(await log.read(this.next))) {
        this.deps.logger.warn({ expected: this.next, head }, 'endpoint change log skipped ahead; every cached endpoint is read again');
        cache.expireAll();
        this.next = head + 1;
      }
    }
    return found;
  }

  private schedule(): void {
    if (!this.started) return;
    this.timer = setTimeout(() => {
      this.running = this.poll()
        .then(() => undefined)
        .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'endpoint change log not read; trying again'))
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, this.options.intervalMs);
    this.timer.unref();
  }
}
