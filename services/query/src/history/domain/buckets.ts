import type { BBox } from '@stormhook/geometry';
import type { HistoryKind } from './kinds.js';

/**
 * How the history is cut into chunks: by UTC day of the ingest time, and by a cell of a plain
 * longitude/latitude grid holding the record's location (a strike's point, the centre of a box).
 * Strikes are many and small, so their cells are small (0.25 degrees, about 28 x 21 km over
 * Turkey): a 10 km alarm reads one to four cells a day. Polygons and forecast chunks are few and
 * large, so theirs are 2 degrees (a read then fetches one or two a day); a chunk's manifest keeps the union of its records' boxes, which is
 * what a read tests, so a polygon reaching out of its cell is still found.
 */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

const CELL_DEGREES: Record<HistoryKind, number> = { LIGHTNING: 0.25, THUNDERSTORM: 2, PRECIPITATION: 2, FORECAST: 2 };

export function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** The hour of its day (0..23) a time falls in. */
export function hourOfDay(ms: number): number {
  return Math.floor((ms - dayOf(ms) * DAY_MS) / HOUR_MS);
}

/** `yyyymmdd` of a day number, for collection names. */
export function dayName(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10).replace(/-/g, '');
}

/** The grid cell of a record, as `<row>.<col>`; `x` for a record without a location. */
export function cellOf(kind: HistoryKind, box: BBox | undefined): string {
  if (!box) return 'x';
  const size = CELL_DEGREES[kind];
  const lng = (box.minLng + box.maxLng) / 2;
  const lat = (box.minLat + box.maxLat) / 2;
  return `${Math.floor((lat + 90) / size)}.${Math.floor((lng + 180) / size)}`;
}
