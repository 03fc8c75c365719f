import type { Logger } from '@stormhook/logger';
import { Lru } from '../persistence/lru.js';
import type { PayloadStore } from '../persistence/payload-store.js';
import type { SegmentLog } from '../persistence/segment-log.js';
import type { IndexEntry } from './entry.js';
import { EventIndex } from './event-index.js';

export type AcceptResult = 'stored' | 'duplicate';

export interface EventReadModelOptions<E> {
  log: SegmentLog<IndexEntry>;
  payloads: PayloadStore;
  decode(bytes: Uint8Array): E;
  /** Decoded events kept in memory, by weight (see `weigh`). */
  cacheWeight: number;
  weigh(event: E): number;
  logger: Logger;
}

/**
 * One kind of weather event as the query service holds it: the list index in memory, the index
 * log and the full events in the database. Accepting an event writes the database first and the
 * memory last, so an event visible to a query is always durable, and a crash between the steps
 * only means the next delivery of the record does the rest.
 */
export class EventReadModel<E> {
  readonly index = new EventIndex();
  private readonly cache: Lru<string, E>;

  constructor(private readonly options: EventReadModelOptions<E>) {
    this.cache = new Lru<string, E>(options.cacheWeight, options.weigh);
  }

  /** Rebuilds the index from the database; entries older than `cutoff` are left out. */
  async load(cutoff: number): Promise<{ entries: number; segments: number; journals: number; ms: number }> {
    const started = performance.now();
    const stats = await this.options.log.load(cutoff, (entry) => this.index.apply(entry));
    return { ...stats, ms: Math.round(performance.now() - started) };
  }

  /** Whether `revision` of `eventId` (or a later one) is already held. */
  has(eventId: string, revision: number): boolean {
    return this.index.revisionOf(eventId) >= revision;
  }

  async accept(entry: IndexEntry, bytes: Uint8Array, decoded: E): Promise<AcceptResult> {
    if (this.has(entry.eventId, entry.revision)) return 'duplicate';
    await this.options.payloads.put(entry.eventId, entry.revision, entry.time, bytes);
    await this.options.log.append(entry);
    this.index.apply(entry);
    this.cache.set(`${entry.eventId}:${entry.revision}`, decoded);
    return 'stored';
  }

  /** The full event of an index entry: from memory when cached, else from the database. */
  async payload(entry: IndexEntry): Promise<E | undefined> {
    const key = `${entry.eventId}:${entry.revision}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const bytes = await this.options.payloads.get(entry.eventId, entry.revision, entry.time);
    if (!bytes) return undefined;
    const event = this.options.decode(bytes);
    this.cache.set(key, event);
    return event;
  }

  /** Several payloads, fetched with bounded parallelism, in the order of `entries`. */
  async payloads(entries: readonly IndexEntry[], parallel = 8): Promise<Array<E | undefined>> {
    const out = new Array<E | undefined>(entries.length);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < entries.length; i = next++) out[i] = await this.payload(entries[i]!);
    };
    await Promise.all(Array.from({ length: Math.min(parallel, entries.length) }, worker));
    return out;
  }

  /** Retention: drops what sorts before `cutoff` from memory, the index log and the payload days. */
  async purge(cutoff: number): Promise<{ entries: number; segments: number; days: number }> {
    const entries = this.index.purgeBefore(cutoff);
    const segments = await this.options.log.expire(cutoff);
    const days = (await this.options.payloads.dropDaysBefore(cutoff)).length;
    return { entries, segments, days };
  }

  /** Compacts the journal when due (see SegmentLog). */
  roll(force = false): Promise<void> {
    return this.options.log.roll(force);
  }
}
