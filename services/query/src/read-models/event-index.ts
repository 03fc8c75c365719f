import type { BBox } from '@stormhook/geometry';
import { AREA_WORDS, AreaBits } from './area-bits.js';
import type { IndexEntry } from './entry.js';
import { SortedBlocks } from './sorted-blocks.js';

/** What a list query keeps. */
export interface IndexQuery {
  /** Sort times from..to, inclusive (epoch ms). */
  timeFrom: number;
  timeTo: number;
  /** When set, only entries whose start time is at most this (overlap with a window). */
  startAtMost?: number;
  /** Lowest rank kept (intensity threshold). */
  minRank?: number;
  /** Areas the caller may see; absent: unrestricted. */
  areaMask?: Uint32Array;
}

export type ApplyResult = 'inserted' | 'replaced' | 'stale';

const INITIAL_CAPACITY = 1024;

/**
 * The in-memory list index of one event kind. Columns are typed arrays indexed by slot, so a
 * million events cost about 130 bytes each (id string, map entry, ~90 bytes of columns) instead
 * of a JavaScript object per event; slots of purged events are reused.
 */
export class EventIndex {
  private readonly ids: string[] = [];
  private readonly slotOf = new Map<string, number>();
  private readonly free: number[] = [];
  private capacity = 0;
  private revision = new Uint32Array(0);
  private time = new Float64Array(0);
  private start = new Float64Array(0);
  private rank = new Uint8Array(0);
  private flags = new Uint8Array(0);
  private bbox = new Float64Array(0);
  private areas = new Uint32Array(0);
  private readonly order = new SortedBlocks((slot) => this.ids[slot]!);
  /** Longest (time - startTime) seen: how far past a window's end an overlapping entry can sort. */
  private maxSpan = 0;
  readonly areaBits = new AreaBits();
  private readonly scratch = new Uint32Array(AREA_WORDS);

  get size(): number {
    return this.slotOf.size;
  }

  private grow(): void {
    const capacity = Math.max(INITIAL_CAPACITY, this.capacity * 2);
    const resize = <T extends Float64Array | Uint32Array | Uint8Array>(old: T, make: (n: number) => T, width = 1): T => {
      const next = make(capacity * width);
      next.set(old);
      return next;
    };
    this.revision = resize(this.revision, (n) => new Uint32Array(n));
    this.time = resize(this.time, (n) => new Float64Array(n));
    this.start = resize(this.start, (n) => new Float64Array(n));
    this.rank = resize(this.rank, (n) => new Uint8Array(n));
    this.flags = resize(this.flags, (n) => new Uint8Array(n));
    this.bbox = resize(this.bbox, (n) => new Float64Array(n), 4);
    this.areas = resize(this.areas, (n) => new Uint32Array(n), AREA_WORDS);
    this.capacity = capacity;
  }

  private allocate(eventId: string): number {
    let slot = this.free.pop();
    if (slot === undefined) {
      slot = this.ids.length;
      if (slot >= this.capacity) this.grow();
      this.ids.push(eventId);
    } else {
      this.ids[slot] = eventId;
    }
    this.slotOf.set(eventId, slot);
    return slot;
  }

  private write(slot: number, entry: IndexEntry): void {
    this.revision[slot] = entry.revision;
    this.time[slot] = entry.time;
    this.start[slot] = entry.startTime;
    this.rank[slot] = entry.rank;
    this.flags[slot] = entry.flags;
    this.bbox.set([entry.bbox.minLng, entry.bbox.minLat, entry.bbox.maxLng, entry.bbox.maxLat], slot * 4);
    this.areas.set(this.areaBits.maskOf(entry.areas, this.scratch), slot * AREA_WORDS);
    this.maxSpan = Math.max(this.maxSpan, entry.time - entry.startTime);
  }

  /** Keeps the entry when its revision is higher than the one held (or the event is new). */
  apply(entry: IndexEntry): ApplyResult {
    const existing = this.slotOf.get(entry.eventId);
    if (existing === undefined) {
      const slot = this.allocate(entry.eventId);
      this.write(slot, entry);
      this.order.insert(entry.time, slot);
      return 'inserted';
    }
    if (entry.revision <= this.revision[existing]!) return 'stale';
    this.order.remove(this.time[existing]!, existing);
    this.write(existing, entry);
    this.order.insert(entry.time, existing);
    return 'replaced';
  }

  /** The revision held for `eventId`, or 0 when unknown. */
  revisionOf(eventId: string): number {
    const slot = this.slotOf.get(eventId);
    return slot === undefined ? 0 : this.revision[slot]!;
  }

  /** The entry held for `eventId`, rebuilt from the columns. */
  get(eventId: string): IndexEntry | undefined {
    const slot = this.slotOf.get(eventId);
    return slot === undefined ? undefined : this.entryAt(slot);
  }

  entryAt(slot: number): IndexEntry {
    const areas: string[] = [];
    for (let bit = 0; bit < AREA_WORDS * 32; bit++) {
      if ((this.areas[slot * AREA_WORDS + (bit >>> 5)]! >>> (bit & 31)) & 1) areas.push(this.areaBits.keyOf(bit)!);
    }
    return {
      eventId: this.ids[slot]!,
      revision: this.revision[slot]!,
      time: this.time[slot]!,
      startTime: this.start[slot]!,
      rank: this.rank[slot]!,
      flags: this.flags[slot]!,
      bbox: this.bboxAt(slot),
      areas,
    };
  }

  idAt(slot: number): string {
    return this.ids[slot]!;
  }

  bboxAt(slot: number): BBox {
    const o = slot * 4;
    return { minLng: this.bbox[o]!, minLat: this.bbox[o + 1]!, maxLng: this.bbox[o + 2]!, maxLat: this.bbox[o + 3]! };
  }

  /** Whether the entry at `slot` touches an area of `mask`. */
  touches(slot: number, mask: Uint32Array): boolean {
    const o = slot * AREA_WORDS;
    for (let w = 0; w < AREA_WORDS; w++) if ((this.areas[o + w]! & mask[w]!) !== 0) return true;
    return false;
  }

  /** Calls `visit` for every entry matching `q`, newest first; stop by returning false. */
  forEachMatch(q: IndexQuery, visit: (slot: number) => boolean | void): void {
    const upper = q.startAtMost === undefined ? q.timeTo : q.timeTo + this.maxSpan;
    const minRank = q.minRank ?? 0;
    const mask = q.areaMask;
    this.order.descending(q.timeFrom, upper, (slot) => {
      if (q.startAtMost !== undefined && this.start[slot]! > q.startAtMost) return true;
      if (this.rank[slot]! < minRank) return true;
      if (mask && !this.touches(slot, mask)) return true;
      return visit(slot);
    });
  }

  /** One page of the matches of `q` (newest first) and the exact number of matches. */
  page(q: IndexQuery, offset: number, limit: number): { total: number; slots: number[] } {
    let total = 0;
    const slots: number[] = [];
    this.forEachMatch(q, (slot) => {
      if (total >= offset && slots.length < limit) slots.push(slot);
      total++;
    });
    return { total, slots };
  }

  /** Removes every entry whose sort time is before `cutoff`; returns how many. */
  purgeBefore(cutoff: number): number {
    const old = this.order.olderThan(cutoff);
    for (const { time, slot } of old) {
      this.order.remove(time, slot);
      this.slotOf.delete(this.ids[slot]!);
      this.ids[slot] = '';
      this.free.push(slot);
    }
    return old.length;
  }
}
