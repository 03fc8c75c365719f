import { MicroBatcher } from '@stormhook/batch';
import { FEED_KINDS, type FeedKind } from '../domain/normalised.js';
import { SeenView } from './seen-view.js';
import { seenKeyId, type BatchSeenStore, type SeenKey, type SeenRecord, type SeenStore } from './seen-store.js';

/** Bounds of the seen-store batches and of the in-memory views. */
export interface SeenBatching {
  /** Look-ups or inserts per database round trip at most. */
  maxItems: number;
  /** How long the first item of a batch waits for others. */
  maxDelayMs: number;
  /** Entries kept in memory per feed; 0 turns the views off. */
  viewCapacity: number;
  /** How far back the view of a feed is read from the database when it starts. */
  viewWindowMs: number;
}

export const DEFAULT_SEEN_BATCHING: SeenBatching = { maxItems: 500, maxDelayMs: 5, viewCapacity: 100_000, viewWindowMs: 10 * 60_000 };

/**
 * How far apart the event times of two revisions of one source id can lie, per feed, for the view
 * to trust that a key it does not hold does not exist. A lightning strike keeps its time when it is
 * re-sent; a correction that moves it is caught by the refused insert (see SeenView). Radar
 * observations, storm cells (their end time moves) and forecast chunks (each run has a new issue
 * time) have no such bound: their unknown keys are looked up in the database, in batches.
 */
const ABSENCE_SPAN_MS: Record<FeedKind, number | undefined> = {
  lightning: 0,
  precipitation: undefined,
  thunderstorm: undefined,
  forecast: undefined,
};

/**
 * The seen-store as the use case sees it (one record at a time), with the records in flight sharing
 * round trips: a look-up is answered from the feed's in-memory view when it can be (a fresh strike
 * never reaches the database), the others of a batch go to the database together, and the inserts of
 * a batch are one unordered write. Every write still happens after its record was published and each
 * caller gets its own answer, so the use case (and its crash safety) is unchanged.
 *
 * The views hold what this process read or wrote. Another ingest process writes a source id only
 * when its partition moved (call {@link forget} on every assignment) or a publisher keys records
 * badly; a write the database refuses marks the key doubtful, and the database answers for it.
 */
export class BatchingSeenStore implements SeenStore {
  private readonly views: Record<FeedKind, SeenView>;
  private readonly loading = new Map<FeedKind, Promise<void>>();
  private readonly finds: MicroBatcher<SeenKey, SeenRecord | null>;
  private readonly inserts: MicroBatcher<{ key: SeenKey; record: SeenRecord }, boolean>;
  private readonly opts: SeenBatching;
  /** Look-ups answered from memory and from the database (logs, tests, the benchmark). */
  readonly stats = { fromView: 0, fromDatabase: 0 };

  constructor(
    private readonly inner: BatchSeenStore,
    batching: Partial<SeenBatching> = {},
    private readonly clock: () => number = Date.now,
  ) {
    this.opts = { ...DEFAULT_SEEN_BATCHING, ...batching };
    const view = (feed: FeedKind) => new SeenView(this.opts.viewCapacity, ABSENCE_SPAN_MS[feed]);
    this.views = Object.fromEntries(FEED_KINDS.map((feed) => [feed, view(feed)])) as Record<FeedKind, SeenView>;
    // Look-ups: two batches out at once, the next gathers while the database answers the last.
    this.finds = new MicroBatcher({
      maxItems: this.opts.maxItems,
      maxDelayMs: this.opts.maxDelayMs,
      maxConcurrentFlushes: 2,
      flush: (keys) => this.inner.findMany(keys),
    });
    // Inserts: one at a time. SQLite has one writer; two concurrent insertMany took longer than both in turn.
    this.inserts = new MicroBatcher({ maxItems: this.opts.maxItems, maxDelayMs: this.opts.maxDelayMs, flush: (items) => this.inner.insertMany(items) });
  }

  async find(key: SeenKey, eventTimeEpochMs?: number): Promise<SeenRecord | null> {
    const view = this.views[key.feed];
    const id = seenKeyId(key);
    if (view.wantsLoad) this.startLoad(key.feed);
    const answer = view.lookup(id, eventTimeEpochMs ?? Number.NEGATIVE_INFINITY);
    if (answer.kind !== 'ask-database') {
      this.stats.fromView++;
      return answer.kind === 'known' ? answer.record : null;
    }
    this.stats.fromDatabase++;
    const found = await this.finds.add(key);
    if (found !== null) view.set(id, found);
    return found;
  }

  async insert(key: SeenKey, record: SeenRecord): Promise<boolean> {
    const created = await this.inserts.add({ key, record });
    this.afterWrite(key, record, created);
    return created;
  }

  async replace(key: SeenKey, expectedRevision: number, record: SeenRecord): Promise<boolean> {
    // Corrections are rare next to first arrivals; they keep their single conditional update.
    const replaced = await this.inner.replace(key, expectedRevision, record);
    this.afterWrite(key, record, replaced);
    return replaced;
  }

  async purgeBefore(epochMs: number): Promise<number> {
    for (const view of Object.values(this.views)) view.deleteBefore(epochMs);
    return this.inner.purgeBefore(epochMs);
  }

  /** Drops the views; each reads its window from the database again (after a rebalance). */
  forget(): void {
    for (const view of Object.values(this.views)) view.clear();
    this.loading.clear();
  }

  /** Waits for the batches under way (stop). */
  async drain(): Promise<void> {
    await Promise.all([this.finds.drain(), this.inserts.drain(), ...this.loading.values()]);
  }

  private afterWrite(key: SeenKey, record: SeenRecord, written: boolean): void {
    const view = this.views[key.feed];
    if (written) view.set(seenKeyId(key), record);
    else view.distrust(seenKeyId(key));
  }

  /**
   * Reads the feed's recent entries in the background; until it is in, look-ups go to the database
   * as before, so a slow read delays nothing. A failed read is tried again at the next look-up.
   */
  private startLoad(feed: FeedKind): void {
    if (this.loading.has(feed)) return;
    const horizon = this.clock() - this.opts.viewWindowMs;
    const view = this.views[feed];
    const load = this.inner.findSince(feed, horizon).then(
      (entries) => {
        // A forget() meanwhile started over: this read may predate what the new owner wrote.
        if (this.loading.get(feed) !== load) return;
        view.load(
          horizon,
          entries.map(({ key, record }) => ({ id: seenKeyId(key), record })),
        );
        this.loading.delete(feed);
      },
      () => {
        if (this.loading.get(feed) === load) this.loading.delete(feed);
      },
    );
    this.loading.set(feed, load);
  }
}
