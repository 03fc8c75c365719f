import { DAY_MS, HOUR_MS, dayOf, hourOfDay } from './buckets.js';
import type { HistoryKind } from './kinds.js';

/** A stretch of time, epoch ms UTC, from inclusive, to exclusive. */
export interface Span {
  fromMs: number;
  toMs: number;
}

/**
 * The hours in which the history holds any record of a kind, anywhere: one 24-bit mask per kind and
 * day. A read reports them so that no record in a small box is told apart from no data at all.
 */
export class CoverageIndex {
  private readonly byKind = new Map<HistoryKind, Map<number, number>>();

  /** Marks the hours of `mask` (bit h = hour h) of `day`. */
  addMask(kind: HistoryKind, day: number, mask: number): void {
    let days = this.byKind.get(kind);
    if (!days) this.byKind.set(kind, (days = new Map()));
    days.set(day, (days.get(day) ?? 0) | mask);
  }

  add(kind: HistoryKind, ms: number): void {
    this.addMask(kind, dayOf(ms), 1 << hourOfDay(ms));
  }

  /** Forgets every day before `day` (retention). */
  dropBefore(day: number): void {
    for (const days of this.byKind.values()) for (const d of [...days.keys()]) if (d < day) days.delete(d);
  }

  clear(): void {
    this.byKind.clear();
  }

  /** The covered hours of [fromMs, toMs), merged into spans and clipped to the window. */
  spans(kind: HistoryKind, fromMs: number, toMs: number): Span[] {
    const days = this.byKind.get(kind);
    const spans: Span[] = [];
    if (!days || toMs <= fromMs) return spans;
    for (let hour = Math.floor(fromMs / HOUR_MS) * HOUR_MS; hour < toMs; hour += HOUR_MS) {
      const day = Math.floor(hour / DAY_MS);
      const mask = days.get(day) ?? 0;
      if ((mask & (1 << hourOfDay(hour))) === 0) continue;
      const from = Math.max(fromMs, hour);
      const to = Math.min(toMs, hour + HOUR_MS);
      const last = spans[spans.length - 1];
      if (last && last.toMs === from) last.toMs = to;
      else spans.push({ fromMs: from, toMs: to });
    }
    return spans;
  }
}

/** The hour mask of a set of times within one day. */
export function hourMask(times: Iterable<number>): number {
  let mask = 0;
  for (const t of times) mask |= 1 << hourOfDay(t);
  return mask;
}
